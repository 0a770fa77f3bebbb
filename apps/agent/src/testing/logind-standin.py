#!/usr/bin/python3
"""A TEST STAND-IN for systemd-logind (not logind): owns org.freedesktop.login1 on the bus named by
DBUS_SYSTEM_BUS_ADDRESS and implements just what the kubelet's node shutdown manager uses:
Manager.Inhibit (returns the write end of a pipe as logind returns its lock fd; the lock is released when every
holder closed it), the InhibitDelayMaxUSec property, and the PrepareForShutdown signal, sent on command.
Commands on stdin, one a line: "shutdown true" / "shutdown false", "delay <usec>".
Reports on stdout, one a line: "ready", "inhibit <n> <what>|<who>|<why>|<mode>", "released <n>".
Needs python3-gi (Debian)."""
import os
import sys

from gi.repository import Gio, GLib

PATH = '/org/freedesktop/login1'
IFACE = 'org.freedesktop.login1.Manager'
XML = f"""<node><interface name='{IFACE}'>
<method name='Inhibit'><arg type='s' direction='in'/><arg type='s' direction='in'/><arg type='s' direction='in'/>
<arg type='s' direction='in'/><arg type='h' direction='out'/></method>
<property name='InhibitDelayMaxUSec' type='t' access='read'/>
<signal name='PrepareForShutdown'><arg type='b'/></signal>
</interface></node>"""

state = {'delay': int(os.environ.get('STANDIN_INHIBIT_DELAY_USEC', '5000000')), 'locks': 0}


def say(line):
    sys.stdout.write(line + '\n')
    sys.stdout.flush()


def on_call(conn, sender, path, iface, method, params, invocation):
    if method != 'Inhibit':
        invocation.return_dbus_error('org.freedesktop.DBus.Error.UnknownMethod', method)
        return
    state['locks'] += 1
    n = state['locks']
    r, w = os.pipe()
    fds = Gio.UnixFDList.new()
    idx = fds.append(w)
    os.close(w)
    invocation.return_value_with_unix_fd_list(GLib.Variant('(h)', (idx,)), fds)

    say(f'inhibit {n} ' + '|'.join(params.unpack()))

    def closed(fd, cond):
        os.close(r)
        say(f'released {n}')
        return False

    GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, r, GLib.IOCondition.HUP | GLib.IOCondition.ERR, closed)


def on_get(conn, sender, path, iface, prop):
    return GLib.Variant('t', state['delay'])


def on_stdin(fd, cond):
    line = sys.stdin.readline()
    if not line:
        loop.quit()
        return False
    words = line.split()
    if len(words) == 2 and words[0] == 'shutdown':
        conn.emit_signal(None, PATH, IFACE, 'PrepareForShutdown', GLib.Variant('(b)', (words[1] == 'true',)))
        conn.flush_sync(None)
        say(f'sent {words[1]}')
    elif len(words) == 2 and words[0] == 'delay':
        state['delay'] = int(words[1])
    return True


conn = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
conn.register_object(PATH, info, on_call, on_get, None)
loop = GLib.MainLoop()
Gio.bus_own_name_on_connection(conn, 'org.freedesktop.login1', Gio.BusNameOwnerFlags.NONE, lambda c, n: say('ready'), lambda c, n: loop.quit())
GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_stdin)
loop.run()
