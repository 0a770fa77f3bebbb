/** One line per lifecycle event for the ops tail: time, type, ns/pod, what happened. */
import { eventPodRef, type NodeletEvent, type ShutdownProgress } from '@nodelet/core/events';

export function formatEventLine(e: NodeletEvent): string {
  const ref = eventPodRef(e);
  const who = ref?.name ? `${ref.namespace ?? '-'}/${ref.name}` : '-';
  return `${e.time}  ${e.type.padEnd(9)}  ${who.padEnd(30)}  ${describe(e)}`;
}

function describe(e: NodeletEvent): string {
  switch (e.type) {
    case 'pleg':
      return [e.pleg, e.containerName, e.containerId ? `(${e.containerId.slice(0, 12)})` : ''].filter(Boolean).join(' ');
    case 'podStatus': {
      const cs = e.containers
        .map((c) => `${c.init ? 'init:' : ''}${c.name}=${c.state}${c.reason ? `(${c.reason})` : ''}${c.restartCount ? ` restarts=${c.restartCount}` : ''}`)
        .join(' ');
      return `phase=${e.phase} ready=${e.ready}${cs ? ` ${cs}` : ''}`;
    }
    case 'podConfig':
      return `${e.op} from ${e.source}`;
    case 'k8sEvent':
      return `${e.eventType} ${e.reason}: ${e.message}${e.count > 1 ? ` (x${e.count})` : ''}`;
    case 'decision':
      return e.decision === 'sync'
        ? `sync: ${(e.steps ?? []).map((s) => `${s.action} ${s.target}${s.error ? ` (${s.error}: ${s.message ?? ''})` : ''}`).join(', ')}`
        : `${e.decision}${e.reason ? ` ${e.reason}` : ''}${e.message ? `: ${e.message}` : ''}`;
    case 'runtime':
      return `runtime ${e.ready ? 'ready' : 'NOT ready'}: ${e.message}`;
    case 'device':
      return `${e.change} ${e.resource}${e.container ? ` container ${e.container}` : ''}: ${e.message}`;
    case 'probe':
      return `${e.probeType} ${e.container}=${e.result}${e.effective && e.effective !== e.result ? ` (effective ${e.effective})` : ''} ${e.latencyMs}ms${e.output ? `: ${e.output.trim().slice(0, 120)}` : ''}`;
    case 'pressure':
      return `conditions=[${e.conditions.join(' ')}] ${e.signals.filter((s) => s.met).map((s) => `${s.signal} available=${s.available ?? '?'}`).join(' ')}`.trim();
    case 'shutdown':
      return shutdownLine(e.progress);
    case 'gc':
      return `${e.kind} GC (${e.trigger}): removed ${e.removed.length}, freed ${e.freedBytes} bytes${e.errors.length ? `, ${e.errors.length} errors` : ''}`;
  }
}

/** The node shutdown's phase and, per group that started, how many of its pods are still terminating. */
function shutdownLine(p: ShutdownProgress): string {
  const groups = p.groups
    .filter((g) => g.state !== 'pending')
    .map((g) => `priority ${g.priority}: ${g.state} (${g.pods.filter((x) => x.state === 'terminating').length}/${g.pods.length} terminating, ${g.shutdownGracePeriodSeconds}s)`);
  return [`node shutdown ${p.phase}`, ...groups].join('; ');
}
