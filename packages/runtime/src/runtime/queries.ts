import type { ContainerFilter__Output } from '../../../../proto/gen/runtime/v1/ContainerFilter.ts';
import type { PodSandboxFilter__Output } from '../../../../proto/gen/runtime/v1/PodSandboxFilter.ts';
import type { ContainerRecord, SandboxRecord } from '../state/types.ts';
import type { RuntimeContext } from './context.ts';

const labelsMatch = (labels: Record<string, string>, sel: Record<string, string> | undefined) =>
  Object.entries(sel ?? {}).every(([k, v]) => labels[k] === v);

export function listSandboxes(ctx: RuntimeContext, f: PodSandboxFilter__Output | null | undefined): SandboxRecord[] {
  return [...ctx.store.sandboxes.values()]
    .filter((s) => !f?.id || s.id.startsWith(f.id))
    .filter((s) => !f?.state || s.state === f.state.state)
    .filter((s) => labelsMatch(s.config.labels, f?.labelSelector))
    .sort((a, b) => a.createdAt - b.createdAt);
}

export function listContainers(
  ctx: RuntimeContext,
  f: Pick<ContainerFilter__Output, 'id' | 'podSandboxId' | 'labelSelector'> & { state?: ContainerFilter__Output['state'] } | null | undefined,
): ContainerRecord[] {
  return [...ctx.store.containers.values()]
    .filter((c) => !f?.id || c.id.startsWith(f.id))
    .filter((c) => !f?.podSandboxId || c.sandboxId.startsWith(f.podSandboxId))
    .filter((c) => !f?.state || c.state === f.state.state)
    .filter((c) => labelsMatch(c.config.labels, f?.labelSelector))
    .sort((a, b) => a.createdAt - b.createdAt);
}
