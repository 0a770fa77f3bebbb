import type * as grpc from '@grpc/grpc-js';
import type { ContainerEventResponse } from '../../../../proto/gen/runtime/v1/ContainerEventResponse.ts';
import type { RuntimeServiceHandlers } from '../../../../proto/gen/runtime/v1/RuntimeService.ts';
import type { GetEventsRequest__Output } from '../../../../proto/gen/runtime/v1/GetEventsRequest.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { ok, fail } from '../runtime/result.ts';
import { runtimeHandlers } from '../runtime/handlers.ts';
import type { RuntimeEvent } from '../runtime/events.ts';
import { toContainerItem, toContainerStats, toContainerStatus, toSandboxItem, toSandboxStatus } from './convert.ts';
import { ListItems } from './list-frames.ts';
import type { ContainerRecord } from '../state/types.ts';
import { podSandboxStats } from './pod-stats.ts';
import { goJson } from './verbose-config.ts';
import { unary, unimplemented, unimplementedStream } from './unary.ts';
import type { StreamingServer } from '../streaming/streaming-server.ts';
import { streamingHandlers } from '../streaming/stream-rpcs.ts';

export const RUNTIME_NAME = 'nodelet-runtime';
export const RUNTIME_VERSION = '0.1.0';

/** CRI RuntimeService; Exec / Attach / PortForward answer URLs on `streaming` when given (else UNIMPLEMENTED). */
export function runtimeServiceHandlers(rt: Runtime, streaming?: StreamingServer): RuntimeServiceHandlers {
  const log = rt.ctx.logger;
  const ctx = rt.ctx;
  const image = (id: string) => ctx.images.status(id);
  // List items kept per record while unchanged: the gRPC server encodes each once (list-frames.ts).
  const sandboxItems = new ListItems(toSandboxItem);
  const containerItems = new ListItems((c: ContainerRecord) => toContainerItem(c, image(c.imageId)));
  const containerStatus = (id: string) => {
    const c = ctx.store.containers.get(id);
    return c ? toContainerStatus(c, image(c.imageId)) : undefined;
  };
  const handlers: Partial<RuntimeServiceHandlers> = {
    ...(streaming ? streamingHandlers(rt, streaming) : {}),
    Version: unary(log, 'Version', () =>
      ok({ version: '0.1.0', runtimeName: RUNTIME_NAME, runtimeVersion: RUNTIME_VERSION, runtimeApiVersion: 'v1' })),
    Status: unary(log, 'Status', (req) => ok({
      status: {
        conditions: [
          { type: 'RuntimeReady', status: true, reason: '', message: '' },
          { type: 'NetworkReady', status: true, reason: '', message: '' },
        ],
      },
      runtimeHandlers: runtimeHandlers(ctx.privileged),
      info: (req.verbose
        ? { config: JSON.stringify({ cgroups: ctx.cgroups?.layout ?? null, userNamespaces: !ctx.privileged, cni: ctx.network.enabled ? `bridge (${ctx.network.binDir})` : 'none: isolated pods get loopback only and no IP' }) }
        : {}) as Record<string, string>,
    })),
    // The kubelet's pod range (podCIDR): the bridge of new sandboxes takes it (network/pod-network.ts).
    UpdateRuntimeConfig: unary(log, 'UpdateRuntimeConfig', async (req) => {
      const r = await ctx.network.setPodCidr(req.runtimeConfig?.networkConfig?.podCidr ?? '');
      return r.ok ? ok({}) : fail('INVALID_ARGUMENT', r.message);
    }),
    RunPodSandbox: unary(log, 'RunPodSandbox', async (req) => {
      if (!req.config) return fail('INVALID_ARGUMENT', 'config is required');
      const r = await rt.runSandbox(req.config, req.runtimeHandler);
      return r.ok ? ok({ podSandboxId: r.value }) : r;
    }),
    StopPodSandbox: unary(log, 'StopPodSandbox', async (req) => map(await rt.stopSandbox(req.podSandboxId), () => ({}))),
    RemovePodSandbox: unary(log, 'RemovePodSandbox', async (req) => map(await rt.removeSandbox(req.podSandboxId), () => ({}))),
    PodSandboxStatus: unary(log, 'PodSandboxStatus', (req) => {
      const s = ctx.store.findSandbox(req.podSandboxId);
      if (!s) return fail('NOT_FOUND', `an error occurred when try to find sandbox "${req.podSandboxId}": not found`);
      const containersStatuses = ctx.store.containersOf(s.id).map((c) => toContainerStatus(c, image(c.imageId)));
      const info: Record<string, string> = req.verbose
        ? { info: JSON.stringify({ pid: s.pausePid ?? 0, namespaces: s.namespaces, cgroupParent: s.cgroupParent, config: goJson(s.config) }) }
        : {};
      return ok({ status: toSandboxStatus(s), info, containersStatuses, timestamp: Date.now() * 1e6 });
    }),
    ListPodSandbox: unary(log, 'ListPodSandbox', (req) => ok({ items: rt.listSandboxes(req.filter).map((s) => sandboxItems.of(s)) })),
    CreateContainer: unary(log, 'CreateContainer', (req) => {
      if (!req.config) return fail('INVALID_ARGUMENT', 'config is required');
      return map(rt.createContainer(req.podSandboxId, req.config), (containerId) => ({ containerId }));
    }),
    StartContainer: unary(log, 'StartContainer', async (req) => map(await rt.startContainer(req.containerId), () => ({}))),
    StopContainer: unary(log, 'StopContainer', async (req) => map(await rt.stopContainer(req.containerId, req.timeout), () => ({}))),
    RemoveContainer: unary(log, 'RemoveContainer', async (req) => map(await rt.removeContainer(req.containerId), () => ({}))),
    ListContainers: unary(log, 'ListContainers', (req) =>
      ok({ containers: rt.listContainers(req.filter).map((c) => containerItems.of(c)) })),
    ContainerStatus: unary(log, 'ContainerStatus', (req) => {
      const c = ctx.store.findContainer(req.containerId);
      if (!c) return fail('NOT_FOUND', `an error occurred when try to find container "${req.containerId}": not found`);
      const info: Record<string, string> = req.verbose
        ? { info: JSON.stringify({ pid: c.pid ?? 0, sandboxID: c.sandboxId, cgroupPath: c.cgroupPath, argv: c.argv, imageId: c.imageId, config: goJson(c.config) }) }
        : {};
      return ok({ status: toContainerStatus(c, image(c.imageId)), info });
    }),
    ContainerStats: unary(log, 'ContainerStats', (req) => {
      const c = ctx.store.findContainer(req.containerId);
      if (!c) return fail('NOT_FOUND', `failed to find container "${req.containerId}": not found`);
      return ok({ stats: toContainerStats(c, rt.stats.sample(c)) });
    }),
    ListContainerStats: unary(log, 'ListContainerStats', (req) => ok({
      stats: rt.listContainers(req.filter ? { ...req.filter } : null)
        .filter((c) => c.state === 'CONTAINER_RUNNING')
        .map((c) => toContainerStats(c, rt.stats.sample(c))),
    })),
    PodSandboxStats: unary(log, 'PodSandboxStats', (req) => {
      const s = ctx.store.findSandbox(req.podSandboxId);
      if (!s) return fail('NOT_FOUND', `failed to find sandbox "${req.podSandboxId}": not found`);
      return ok({ stats: podSandboxStats(rt, s) });
    }),
    ListPodSandboxStats: unary(log, 'ListPodSandboxStats', (req) => ok({
      stats: rt.listSandboxes(req.filter ? { id: req.filter.id, labelSelector: req.filter.labelSelector, state: null } : null)
        .filter((s) => s.state === 'SANDBOX_READY')
        .map((s) => podSandboxStats(rt, s)),
    })),
    ExecSync: unary(log, 'ExecSync', async (req) => rt.execSync(req.containerId, req.cmd, req.timeout)),
    UpdateContainerResources: unary(log, 'UpdateContainerResources', (req) =>
      map(rt.updateResources(req.containerId, req.linux), () => ({}))),
    ReopenContainerLog: unary(log, 'ReopenContainerLog', (req) => map(rt.reopenLog(req.containerId), () => ({}))),
    GetContainerEvents: (call: grpc.ServerWritableStream<GetEventsRequest__Output, ContainerEventResponse>) => {
      const onEvent = (e: RuntimeEvent) => {
        const sb = ctx.store.sandboxes.get(e.sandboxId);
        // Every container of the pod (the event's own first): the evented PLEG rebuilds the pod from it.
        const ids = [e.containerId, ...ctx.store.containersOf(e.sandboxId).map((c) => c.id).filter((id) => id !== e.containerId)];
        const containersStatuses = ids.map(containerStatus).filter((x) => x !== undefined);
        call.write({
          containerId: e.containerId, containerEventType: e.type, createdAt: e.createdAt,
          podSandboxStatus: sb ? toSandboxStatus(sb) : null, containersStatuses,
        });
      };
      const unsubscribe = ctx.events.subscribe(onEvent);
      log.debug('event stream opened', { subscribers: ctx.events.size });
      const unhook = rt.onShutdown(() => {
        unsubscribe();
        call.end();
      });
      const close = () => {
        unsubscribe();
        unhook();
      };
      call.on('cancelled', close);
      call.on('close', close);
      call.on('error', close);
    },
  };
  const names = ['Attach', 'Exec', 'PortForward', 'CheckpointContainer', 'CheckpointPod', 'RestorePod', 'ListMetricDescriptors',
    'ListPodSandboxMetrics', 'RuntimeConfig',
    'UpdatePodSandboxResources', 'StreamContainerStats', 'StreamContainers', 'StreamPodSandboxMetrics',
    'StreamPodSandboxStats', 'StreamPodSandboxes'] as const;
  for (const n of names) (handlers as Record<string, unknown>)[n] ??= n.startsWith('Stream') ? unimplementedStream(n) : unimplemented(n);
  return handlers as RuntimeServiceHandlers;
}

function map<A, B>(r: import('../runtime/result.ts').OpResult<A>, f: (a: A) => B): import('../runtime/result.ts').OpResult<B> {
  return r.ok ? ok(f(r.value)) : r;
}
