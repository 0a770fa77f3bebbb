/**
 * The OOM watcher as the kubelet wires it: /dev/kmsg (and memory.events on cgroup v2) → an OOMKilling
 * Warning on the pod for kills inside a pod's container, a SystemOOM Warning on the Node for the rest.
 * The runtime reports OOMKilled itself; oomKilled() answers for runtimes that do not.
 */
import type { CgroupLayout, HostFs } from '../cm/types.ts';
import { readOptional } from '../cm/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { createOomWatcher, type OomWatcherHandle } from '../oom/create-oom-watcher.ts';
import type { OomScope } from '../oom/oom-watcher.ts';
import type { OomEvent } from '../oom/types.ts';
import { parseProcStat } from '../stats/parse.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';

export interface OomWiringDeps {
  fs: HostFs;
  clock: Clock;
  logger: Logger;
  recorder: EventRecorder;
  nodeName: string;
  layout: CgroupLayout;
  /** Container cgroups to poll on v2 (the tracked container cgroups). */
  cgroups: () => string[];
  /** uid → pod reference, for events on the pod. */
  podRef: (uid: string) => { namespace: string; name: string; uid: string } | undefined;
  /** This agent's pod cgroups (its --cgroup-root's kubepods) and pods. */
  scope?: OomScope;
}

export async function startOomWiring(deps: OomWiringDeps): Promise<OomWatcherHandle> {
  const stat = parseProcStat((await readOptional(deps.fs, '/proc/stat')) ?? '');
  const handle = createOomWatcher({
    fs: deps.fs,
    clock: deps.clock,
    logger: deps.logger,
    layout: deps.layout,
    cgroups: deps.cgroups,
    ...(deps.scope ? { scope: deps.scope } : {}),
    ...(stat.btime > 0 ? { bootTimeMs: stat.btime * 1000 } : {}),
    sink: {
      containerOom: (e: OomEvent) => {
        const ref = deps.podRef(e.podUid ?? '');
        if (!ref) return;
        const what = e.processName ? `${e.processName} (pid ${e.pid})` : 'a process';
        void deps.recorder.event({ kind: 'Pod', ...ref }, 'Warning', 'OOMKilling', `Memory cgroup out of memory: killed ${what} in container ${e.containerId ?? ''}`.trim());
      },
      systemOom: (_e, message) => void deps.recorder.event({ kind: 'Node', name: deps.nodeName }, 'Warning', 'SystemOOM', message),
    },
  });
  handle.start();
  return handle;
}
