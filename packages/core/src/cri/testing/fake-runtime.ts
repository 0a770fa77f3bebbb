/**
 * A recording in-memory CRI runtime for core's unit tests. Behaves like containerd where tests care:
 * NOT_FOUND for unknown ids on status/stop, idempotent removes, `{ image: null }` for absent images,
 * UNKNOWN for duplicate container names. Timestamps (ns) come from the injected clock. List answers are
 * deep-frozen as the real client's (cri/list-memo.ts), so a caller that mutates one fails its tests.
 */
import type * as T from '../proto-types.ts';
import type { CriCallOptions, CriClient } from '../types.ts';
import { deepFreeze } from '../deep-freeze.ts';
import { notFound, unknownErr } from './fake-base.ts';
import * as S from './fake-state.ts';
import type { FakeContainer, FakeSandbox } from './fake-state.ts';
import { FakeRuntimeCore } from './fake-runtime-core.ts';

export { HOST_IMAGE } from './fake-state.ts';
export type { FakeCall } from './fake-base.ts';
export type { ExecResult, FakeRuntimeOptions } from './fake-runtime-core.ts';

export class FakeRuntime extends FakeRuntimeCore implements CriClient {
  // ---- sandboxes -------------------------------------------------------------------------------------

  async runPodSandbox(req: T.RunPodSandboxRequest, o?: CriCallOptions): Promise<T.RunPodSandboxResponse__Output> {
    await this.begin('runPodSandbox', req, o, this.closed);
    const n = ++this.seq;
    const sb: FakeSandbox = {
      id: `sandbox-${String(n).padStart(6, '0')}`,
      config: req.config ?? {},
      runtimeHandler: req.runtimeHandler ?? '',
      state: 'SANDBOX_READY',
      createdAt: this.nowNs(),
      // as containerd: a sandbox in the node's network namespace reports no IP
      ip: req.config?.linux?.securityContext?.namespaceOptions?.network === 'NODE' ? '' : `10.88.${(n >> 8) & 255}.${n & 255}`,
    };
    this.sandboxes.set(sb.id, sb);
    this.emit(sb.id, 'CONTAINER_CREATED_EVENT', sb);
    this.emit(sb.id, 'CONTAINER_STARTED_EVENT', sb);
    return { podSandboxId: sb.id };
  }

  async stopPodSandbox(req: T.StopPodSandboxRequest, o?: CriCallOptions): Promise<T.StopPodSandboxResponse__Output> {
    await this.begin('stopPodSandbox', req, o, this.closed);
    const sb = this.sandboxes.get(req.podSandboxId ?? '');
    if (!sb) throw notFound('StopPodSandbox', `sandbox "${req.podSandboxId}"`);
    for (const c of this.containersOf(sb.id)) if (c.state === 'CONTAINER_RUNNING') this.finish(c, 137, 'Error', '');
    if (sb.state !== 'SANDBOX_NOTREADY') {
      sb.state = 'SANDBOX_NOTREADY';
      this.emit(sb.id, 'CONTAINER_STOPPED_EVENT', sb);
    }
    return {};
  }

  async removePodSandbox(req: T.RemovePodSandboxRequest, o?: CriCallOptions): Promise<T.RemovePodSandboxResponse__Output> {
    await this.begin('removePodSandbox', req, o, this.closed);
    const sb = this.sandboxes.get(req.podSandboxId ?? '');
    if (!sb) return {};
    for (const c of this.containersOf(sb.id)) this.dropContainer(c);
    this.sandboxes.delete(sb.id);
    this.emit(sb.id, 'CONTAINER_DELETED_EVENT', { ...sb, state: 'SANDBOX_NOTREADY' });
    return {};
  }

  async podSandboxStatus(req: T.PodSandboxStatusRequest, o?: CriCallOptions): Promise<T.PodSandboxStatusResponse__Output> {
    await this.begin('podSandboxStatus', req, o, this.closed);
    const sb = this.sandboxes.get(req.podSandboxId ?? '');
    if (!sb) throw notFound('PodSandboxStatus', `sandbox "${req.podSandboxId}"`);
    return { status: S.toSandboxStatus(sb), info: {}, containersStatuses: [], timestamp: this.nowNs() };
  }

  async listPodSandbox(req: T.ListPodSandboxRequest = {}, o?: CriCallOptions): Promise<T.ListPodSandboxResponse__Output> {
    await this.begin('listPodSandbox', req, o, this.closed);
    const f = req.filter ?? {};
    const state = S.enumName(S.SANDBOX_STATES, f.state?.state ?? undefined);
    const items = [...this.sandboxes.values()].filter(
      (sb) =>
        (!f.id || sb.id === f.id) &&
        (!f.state || sb.state === state) &&
        S.matchesLabels(sb.config.labels, f.labelSelector),
    );
    return deepFreeze({ items: items.map(S.toPodSandbox) });
  }

  // ---- containers ------------------------------------------------------------------------------------

  async createContainer(req: T.CreateContainerRequest, o?: CriCallOptions): Promise<T.CreateContainerResponse__Output> {
    await this.begin('createContainer', req, o, this.closed);
    const sb = this.sandboxes.get(req.podSandboxId ?? '');
    if (!sb) throw notFound('CreateContainer', `sandbox "${req.podSandboxId}"`);
    const cfg = req.config ?? {};
    const img = this.imageStore.find(cfg.image?.image ?? '');
    if (!img) throw notFound('CreateContainer', `image "${cfg.image?.image ?? ''}"`);
    const name = `${cfg.metadata?.name ?? ''}_${Number(cfg.metadata?.attempt ?? 0)}`;
    const dup = this.containersOf(sb.id).find((c) => `${c.config.metadata?.name ?? ''}_${Number(c.config.metadata?.attempt ?? 0)}` === name);
    if (dup) throw unknownErr('CreateContainer', `failed to reserve container name "${name}": reserved for "${dup.id}"`);
    const dir = sb.config.logDirectory ?? '';
    const c: FakeContainer = {
      id: `container-${String(++this.seq).padStart(6, '0')}`,
      sandboxId: sb.id,
      config: cfg,
      imageRef: img.id,
      state: 'CONTAINER_CREATED',
      createdAt: this.nowNs(),
      startedAt: 0,
      finishedAt: 0,
      exitCode: 0,
      reason: '',
      message: '',
      logPath: cfg.logPath ? (dir ? `${dir.replace(/\/$/, '')}/${cfg.logPath}` : cfg.logPath) : '',
      cpuCoreNanos: 0,
      workingSetBytes: 0,
    };
    this.containers.set(c.id, c);
    this.emit(c.id, 'CONTAINER_CREATED_EVENT', sb);
    return { containerId: c.id };
  }

  async startContainer(req: T.StartContainerRequest, o?: CriCallOptions): Promise<T.StartContainerResponse__Output> {
    await this.begin('startContainer', req, o, this.closed);
    const c = this.getContainer('StartContainer', req.containerId);
    if (c.state !== 'CONTAINER_CREATED') throw unknownErr('StartContainer', `container "${c.id}" is in ${c.state} state`);
    c.state = 'CONTAINER_RUNNING';
    c.startedAt = this.nowNs();
    this.emit(c.id, 'CONTAINER_STARTED_EVENT', this.sandboxes.get(c.sandboxId));
    return {};
  }

  async stopContainer(req: T.StopContainerRequest, o?: CriCallOptions): Promise<T.StopContainerResponse__Output> {
    await this.begin('stopContainer', req, o, this.closed);
    const c = this.getContainer('StopContainer', req.containerId);
    if (c.state === 'CONTAINER_RUNNING') this.finish(c, 143, 'Error', '');
    return {};
  }

  async removeContainer(req: T.RemoveContainerRequest, o?: CriCallOptions): Promise<T.RemoveContainerResponse__Output> {
    await this.begin('removeContainer', req, o, this.closed);
    const c = this.containers.get(req.containerId ?? '');
    if (c) this.dropContainer(c);
    return {};
  }

  async listContainers(req: T.ListContainersRequest = {}, o?: CriCallOptions): Promise<T.ListContainersResponse__Output> {
    await this.begin('listContainers', req, o, this.closed);
    const f = req.filter ?? {};
    const state = S.enumName(S.CONTAINER_STATES, f.state?.state ?? undefined);
    const list = [...this.containers.values()].filter(
      (c) =>
        (!f.id || c.id === f.id) &&
        (!f.podSandboxId || c.sandboxId === f.podSandboxId) &&
        (!f.state || c.state === state) &&
        S.matchesLabels(c.config.labels, f.labelSelector),
    );
    return deepFreeze({ containers: list.map(S.toContainer) });
  }

  async containerStatus(req: T.ContainerStatusRequest, o?: CriCallOptions): Promise<T.ContainerStatusResponse__Output> {
    await this.begin('containerStatus', req, o, this.closed);
    return { status: S.toContainerStatus(this.getContainer('ContainerStatus', req.containerId)), info: {} };
  }

  async reopenContainerLog(req: T.ReopenContainerLogRequest, o?: CriCallOptions): Promise<T.ReopenContainerLogResponse__Output> {
    await this.begin('reopenContainerLog', req, o, this.closed);
    const c = this.getContainer('ReopenContainerLog', req.containerId);
    if (c.state !== 'CONTAINER_RUNNING') throw unknownErr('ReopenContainerLog', `container "${c.id}" is not running`);
    return {};
  }

  /** As containerd: fields left unset (0 / '') keep their value; the last request per container is kept. */
  async updateContainerResources(req: T.UpdateContainerResourcesRequest, o?: CriCallOptions): Promise<T.UpdateContainerResourcesResponse__Output> {
    await this.begin('updateContainerResources', req, o, this.closed);
    const c = this.getContainer('UpdateContainerResources', req.containerId);
    const old = c.config.linux?.resources ?? {};
    const set = Object.fromEntries(Object.entries(req.linux ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== 0));
    c.config = { ...c.config, linux: { ...(c.config.linux ?? {}), resources: { ...old, ...set } } };
    return {};
  }

  async execSync(req: T.ExecSyncRequest, o?: CriCallOptions): Promise<T.ExecSyncResponse__Output> {
    await this.begin('execSync', req, o, this.closed);
    const c = this.getContainer('ExecSync', req.containerId);
    if (c.state !== 'CONTAINER_RUNNING') throw unknownErr('ExecSync', `container "${c.id}" is not running`);
    const r = this.execHandler(c.id, req.cmd ?? []);
    return { exitCode: r.exitCode, stdout: Buffer.from(r.stdout ?? ''), stderr: Buffer.from(r.stderr ?? '') };
  }

  // ---- stats -----------------------------------------------------------------------------------------

  async containerStats(req: T.ContainerStatsRequest, o?: CriCallOptions): Promise<T.ContainerStatsResponse__Output> {
    await this.begin('containerStats', req, o, this.closed);
    return { stats: S.toContainerStats(this.getContainer('ContainerStats', req.containerId), this.nowNs()) };
  }

  async listContainerStats(req: T.ListContainerStatsRequest = {}, o?: CriCallOptions): Promise<T.ListContainerStatsResponse__Output> {
    await this.begin('listContainerStats', req, o, this.closed);
    const f = req.filter ?? {};
    const list = [...this.containers.values()].filter(
      (c) =>
        c.state === 'CONTAINER_RUNNING' &&
        (!f.id || c.id === f.id) &&
        (!f.podSandboxId || c.sandboxId === f.podSandboxId) &&
        S.matchesLabels(c.config.labels, f.labelSelector),
    );
    return { stats: list.map((c) => S.toContainerStats(c, this.nowNs())) };
  }

  async podSandboxStats(req: T.PodSandboxStatsRequest, o?: CriCallOptions): Promise<T.PodSandboxStatsResponse__Output> {
    await this.begin('podSandboxStats', req, o, this.closed);
    const sb = this.sandboxes.get(req.podSandboxId ?? '');
    if (!sb) throw notFound('PodSandboxStats', `sandbox "${req.podSandboxId}"`);
    return { stats: this.sandboxStats(sb) };
  }

  async listPodSandboxStats(req: T.ListPodSandboxStatsRequest = {}, o?: CriCallOptions): Promise<T.ListPodSandboxStatsResponse__Output> {
    await this.begin('listPodSandboxStats', req, o, this.closed);
    const f = req.filter ?? {};
    const list = [...this.sandboxes.values()].filter(
      (sb) => sb.state === 'SANDBOX_READY' && (!f.id || sb.id === f.id) && S.matchesLabels(sb.config.labels, f.labelSelector),
    );
    return { stats: list.map((sb) => this.sandboxStats(sb)) };
  }

  // ---- images ----------------------------------------------------------------------------------------

  async pullImage(req: T.PullImageRequest, o?: CriCallOptions): Promise<T.PullImageResponse__Output> {
    await this.begin('pullImage', req, o, this.closed);
    return { imageRef: this.imageStore.pull(req.image?.image ?? '') };
  }

  async listImages(req: T.ListImagesRequest = {}, o?: CriCallOptions): Promise<T.ListImagesResponse__Output> {
    await this.begin('listImages', req, o, this.closed);
    return deepFreeze({ images: structuredClone(this.imageStore.list(req.filter?.image?.image ?? undefined)) });
  }

  async imageStatus(req: T.ImageStatusRequest, o?: CriCallOptions): Promise<T.ImageStatusResponse__Output> {
    await this.begin('imageStatus', req, o, this.closed);
    return { image: this.imageStore.find(req.image?.image ?? '') ?? null, info: {} };
  }

  async removeImage(req: T.RemoveImageRequest, o?: CriCallOptions): Promise<T.RemoveImageResponse__Output> {
    await this.begin('removeImage', req, o, this.closed);
    this.imageStore.remove(req.image?.image ?? '');
    return {};
  }

  async imageFsInfo(req: T.ImageFsInfoRequest = {}, o?: CriCallOptions): Promise<T.ImageFsInfoResponse__Output> {
    await this.begin('imageFsInfo', req, o, this.closed);
    const now = this.nowNs();
    const containers = { ...this.imageStore.usage(now, '/var/lib/nodelet/containers'), usedBytes: { value: 0 } };
    return { imageFilesystems: [this.imageStore.usage(now, '/var/lib/nodelet/images')], containerFilesystems: [containers] };
  }
}
