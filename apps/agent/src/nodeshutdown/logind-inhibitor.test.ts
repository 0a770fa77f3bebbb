// The logind client's own pieces: the InhibitDelayMaxSec drop-in as the kubelet writes it (inhibit_linux.go
// OverrideInhibitDelay, v1.28) and a clear error naming the Debian package when a tool is missing. The D-Bus paths
// run against a real dbus-daemon in node-shutdown.integration.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { LogindInhibitor } from './logind-inhibitor.ts';

it('writes <logind.conf.d>/99-kubelet.conf with InhibitDelayMaxSec in whole seconds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodelet-logind-conf-'));
  try {
    await new LogindInhibitor({ logindConfDir: join(dir, 'logind.conf.d') }).overrideInhibitDelay(30);
    const file = join(dir, 'logind.conf.d', '99-kubelet.conf');
    assert.equal(readFileSync(file, 'utf8'), '# Kubelet logind override\n[Login]\nInhibitDelayMaxSec=30\n');
    assert.equal(statSync(file).mode & 0o777, 0o644);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('names the missing tool and its Debian package', async () => {
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    const l = new LogindInhibitor();
    await assert.rejects(l.currentInhibitDelaySeconds(), { message: 'busctl not found (Debian package systemd)' });
    await assert.rejects(l.inhibitShutdown(), { message: 'systemd-inhibit not found (Debian package systemd)' });
    await assert.rejects(l.monitorShutdown(() => {}, () => {}), { message: 'dbus-monitor not found (Debian package dbus-bin)' });
  } finally {
    process.env.PATH = path;
  }
});
