/**
 * The tail's "why" line: for each pod, the plain explanation (explainPod) of its latest podStatus event, with the
 * facts the stream has shown (its k8s events, its probes' last failing output), printed when the text changes
 * ("(running and ready)" once it recovers). No clock: the tail line leaves out "next retry in" and "for 3 m",
 * which would change on every event; `pods.why` and the console carry them.
 */
import { explainPod, type NodeletEvent, type PodStatusBusEvent, type WhyEvent, type WhyProbe } from '@nodelet/core/events';

interface PodFacts {
  ref: { namespace: string; name: string };
  status?: PodStatusBusEvent['status'];
  events: WhyEvent[];
  probes: Map<string, WhyProbe>;
  last?: string;
}

const MAX_EVENTS = 20;

export class WhyLines {
  private readonly pods = new Map<string, PodFacts>();

  /** The line to print after `e`, when the pod's explanation changed. */
  observe(e: NodeletEvent): string | undefined {
    const uid = uidOf(e);
    if (!uid) return undefined;
    if (e.type === 'podConfig' && (e.op === 'REMOVE' || e.op === 'DELETE')) {
      this.pods.delete(uid);
      return undefined;
    }
    const f = this.facts(uid, e);
    if (e.type === 'podStatus') f.status = e.status;
    else if (e.type === 'k8sEvent') f.events = [...f.events, { reason: e.reason, message: e.message }].slice(-MAX_EVENTS);
    else if (e.type === 'probe') f.probes.set(`${e.container}/${e.probeType}`, { container: e.container, probeType: e.probeType, lastResult: e.result, ...(e.output ? { output: e.output } : {}) });
    if (!f.status) return undefined;
    const why = explainPod({ metadata: { uid, ...f.ref }, status: f.status }, { events: f.events, probes: [...f.probes.values()] });
    const text = why?.text ?? (f.last ? '(running and ready)' : undefined);
    if (text === undefined || text === f.last) return undefined;
    f.last = text;
    return `${e.time}  ${'why'.padEnd(9)}  ${`${f.ref.namespace}/${f.ref.name}`.padEnd(30)}  ${text}`;
  }

  private facts(uid: string, e: NodeletEvent): PodFacts {
    let f = this.pods.get(uid);
    if (!f) {
      const ref = (e.type === 'k8sEvent' ? e.involvedObject : 'pod' in e ? e.pod : undefined) ?? { namespace: '', name: '' };
      f = { ref: { namespace: ref.namespace ?? 'default', name: ref.name }, events: [], probes: new Map() };
      this.pods.set(uid, f);
    }
    return f;
  }
}

function uidOf(e: NodeletEvent): string | undefined {
  if (e.type === 'k8sEvent') return e.involvedObject.kind === 'Pod' ? e.involvedObject.uid : undefined;
  return e.type === 'podStatus' || e.type === 'probe' || e.type === 'podConfig' ? e.pod.uid : undefined;
}
