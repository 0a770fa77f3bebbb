/** One line per lifecycle event for the ops tail: time, type, ns/pod, what happened. */
import { eventPodRef, type NodeletEvent } from '@nodelet/core/events/types.ts';

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
    case 'runtime':
      return `runtime ${e.ready ? 'ready' : 'NOT ready'}: ${e.message}`;
  }
}
