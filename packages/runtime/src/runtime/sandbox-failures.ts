/**
 * RunPodSandbox failures the kubelet retries: a pod whose sandbox cannot get its network (no free /24, a CNI
 * plugin refusing) fails the same way on every sync (every 10 s, more under back-off). The first failure of a
 * pod with a given cause is logged at error; the same cause again for that pod at debug, so the log says it once
 * (the kubelet's FailedCreatePodSandBox event and the pod's status carry it where a user looks). Once the pod's
 * sandbox starts (or the pod is gone), a failure is news again. Bounded: at most `maxPods` pods are remembered.
 */
import type { Logger } from '../util/logger.ts';

export interface SandboxPodRef {
  uid?: string | undefined;
  namespace?: string | undefined;
  name?: string | undefined;
}

export class SandboxFailureLog {
  /** pod uid → the causes already logged at error (insertion order = age, for the bound). */
  private readonly seen = new Map<string, Set<string>>();

  constructor(
    private readonly logger: Logger,
    private readonly maxPods = 1024,
  ) {}

  /**
   * Logs `msg` for the sandbox `id` of `pod`: error the first time the pod fails with this cause, debug after.
   * The cause is the message with the sandbox's own id taken out (each retry makes a new sandbox id).
   */
  report(pod: SandboxPodRef, id: string, msg: string, err: string): void {
    const uid = pod.uid ?? `${pod.namespace ?? ''}/${pod.name ?? ''}`;
    const cause = `${msg}\n${err.split(id).join('<id>')}`;
    let causes = this.seen.get(uid);
    const fields = { id, pod: `${pod.namespace ?? ''}/${pod.name ?? ''}`, podUID: pod.uid ?? '', err };
    if (causes?.has(cause)) {
      this.logger.debug(`${msg} (again)`, fields);
      return;
    }
    if (!causes) {
      causes = new Set();
      this.seen.set(uid, causes);
      if (this.seen.size > this.maxPods) this.seen.delete(this.seen.keys().next().value as string);
    }
    causes.add(cause);
    this.logger.error(msg, { ...fields, note: 'logged once per pod and cause; repeats at debug' });
  }

  /** The pod's sandbox started (or the pod went): its next failure is logged at error again. */
  clear(uid: string | undefined): void {
    if (uid !== undefined) this.seen.delete(uid);
  }
}
