/**
 * A minimal container GC (the kubelet's ContainerGC, every 1 min once all sources are ready): pods that are
 * no longer desired and have nothing running lose their dead containers and sandboxes (RemoveContainer,
 * RemovePodSandbox). Log files are left where they are (the runtime keeps them past removal).
 */
import type { CriClient } from '../cri/types.ts';
import type { RuntimePod } from '../container/types.ts';
import type { Logger } from '../util/logger.ts';

export interface GcResult {
  removedContainers: number;
  removedSandboxes: number;
  errors: string[];
}

export async function removeDeadPods(
  cri: Pick<CriClient, 'removeContainer' | 'removePodSandbox'>,
  pods: RuntimePod[],
  desired: ReadonlySet<string>,
  busy: (uid: string) => boolean,
  logger: Logger,
): Promise<GcResult> {
  const out: GcResult = { removedContainers: 0, removedSandboxes: 0, errors: [] };
  for (const p of pods) {
    if (desired.has(p.uid) || busy(p.uid)) continue;
    const alive = p.containers.some((c) => c.state === 'running' || c.state === 'unknown') || p.sandboxes.some((s) => s.state === 'ready');
    if (alive) continue;
    try {
      for (const c of p.containers) {
        await cri.removeContainer({ containerId: c.id.id });
        out.removedContainers++;
      }
      for (const s of p.sandboxes) {
        await cri.removePodSandbox({ podSandboxId: s.id.id });
        out.removedSandboxes++;
      }
    } catch (err) {
      out.errors.push(`${p.namespace}/${p.name}: ${String(err)}`);
      logger.warn('container GC failed for pod', { pod: `${p.namespace}/${p.name}`, err: String(err) });
    }
  }
  return out;
}
