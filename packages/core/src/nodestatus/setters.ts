/**
 * Node status setters, as the kubelet's nodestatus package: addresses, machine info (capacity/allocatable),
 * version info, daemon endpoints, images, and the MemoryPressure / DiskPressure / PIDPressure / Ready
 * conditions with heartbeat and transition times. Pure functions of (previous status, input, now).
 */
import type { V1Node, V1NodeCondition, V1NodeStatus } from '@kubernetes/client-node';
import { canonicalJson } from '../util/hash.ts';
import { NODE_STATUS_MAX_IMAGES, type NodeEventNote, type NodeStatusInput } from './types.ts';

const MI = 1024 * 1024;

export function goArch(arch: string = process.arch): string {
  return arch === 'x64' ? 'amd64' : arch === 'ia32' ? '386' : arch;
}

export function nodeLabels(input: Pick<NodeStatusInput, 'hostname' | 'os' | 'arch'>, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'kubernetes.io/hostname': input.hostname,
    'kubernetes.io/os': input.os ?? 'linux',
    'kubernetes.io/arch': input.arch ?? goArch(),
    'beta.kubernetes.io/os': input.os ?? 'linux',
    'beta.kubernetes.io/arch': input.arch ?? goArch(),
    ...extra,
  };
}

/** The Node object the kubelet registers, and the events of its first conditions. */
export function initialNode(input: NodeStatusInput, extraLabels: Record<string, string> = {}, now = Date.now()): { node: V1Node; events: NodeEventNote[] } {
  const { status, events } = buildNodeStatus(undefined, input, now);
  const node: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: input.nodeName,
      labels: nodeLabels(input, extraLabels),
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: {},
    status,
  };
  return { node, events };
}

const ki = (bytes: number) => `${Math.floor(bytes / 1024)}Ki`;

function resources(input: NodeStatusInput): { capacity: Record<string, string>; allocatable: Record<string, string> } {
  const m = input.machine;
  const ev = input.evictionHard ?? { memoryBytes: 100 * MI, nodefsFraction: 0.1 };
  const capacity: Record<string, string> = {
    cpu: String(m.cpuCores),
    memory: ki(m.memoryBytes),
    'ephemeral-storage': ki(m.ephemeralStorageBytes),
    pods: String(input.maxPods),
  };
  const allocatable: Record<string, string> = {
    cpu: String(m.cpuCores),
    memory: ki(Math.max(0, m.memoryBytes - ev.memoryBytes)),
    'ephemeral-storage': String(Math.max(0, Math.floor(m.ephemeralStorageBytes * (1 - ev.nodefsFraction)))),
    pods: String(input.maxPods),
  };
  for (const [name, bytes] of Object.entries(m.hugepages)) {
    capacity[name] = String(bytes);
    allocatable[name] = String(bytes);
  }
  // MachineInfo setter: device plugin capacity, removed resources set to 0, allocatable from the plugins.
  const dp = input.devicePlugins;
  for (const [name, n] of Object.entries(dp?.capacity ?? {})) capacity[name] = String(n);
  for (const name of dp?.removed ?? []) capacity[name] = allocatable[name] = '0';
  for (const [name, n] of Object.entries(dp?.allocatable ?? {})) allocatable[name] = String(n);
  return { capacity, allocatable };
}

function images(input: NodeStatusInput): V1NodeStatus['images'] {
  return [...input.images]
    .filter((i) => i.names.length > 0)
    .sort((a, b) => b.sizeBytes - a.sizeBytes)
    .slice(0, NODE_STATUS_MAX_IMAGES)
    .map((i) => ({ names: i.names, sizeBytes: i.sizeBytes }));
}

interface CondSpec {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  event: string;
}

function conditionSpecs(input: NodeStatusInput): CondSpec[] {
  const p = input.pressure;
  const r = input.readiness;
  return [
    p.memory
      ? { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available', event: 'NodeHasInsufficientMemory' }
      : { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', event: 'NodeHasSufficientMemory' },
    p.disk
      ? { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure', event: 'NodeHasDiskPressure' }
      : { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', event: 'NodeHasNoDiskPressure' },
    p.pid
      ? { type: 'PIDPressure', status: 'True', reason: 'KubeletHasInsufficientPID', message: 'kubelet has insufficient PID available', event: 'NodeHasInsufficientPID' }
      : { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', event: 'NodeHasSufficientPID' },
    r.ready
      ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', event: 'NodeReady' }
      : { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: r.message || 'container runtime status check may not have completed yet', event: 'NodeNotReady' },
  ];
}

/** Conditions with heartbeat = now; transition time kept unless the status flipped. Events for new/flipped ones. */
export function setConditions(prev: V1NodeCondition[] | undefined, input: NodeStatusInput, now: number): { conditions: V1NodeCondition[]; events: NodeEventNote[] } {
  const at = new Date(Math.floor(now / 1000) * 1000);
  const events: NodeEventNote[] = [];
  const known = new Set<string>();
  const conditions: V1NodeCondition[] = [];
  for (const c of conditionSpecs(input)) {
    known.add(c.type);
    const old = prev?.find((x) => x.type === c.type);
    const flipped = !old || old.status !== c.status;
    if (flipped) events.push({ type: 'Normal', reason: c.event, message: `Node ${input.nodeName} status is now: ${c.event}` });
    conditions.push({
      type: c.type,
      status: c.status,
      reason: c.reason,
      message: c.message,
      lastHeartbeatTime: at,
      lastTransitionTime: flipped || !old?.lastTransitionTime ? at : old.lastTransitionTime,
    });
  }
  for (const c of prev ?? []) if (!known.has(c.type)) conditions.push(c);
  return { conditions, events };
}

export function buildNodeStatus(prev: V1NodeStatus | undefined, input: NodeStatusInput, now: number): { status: V1NodeStatus; events: NodeEventNote[] } {
  const { conditions, events } = setConditions(prev?.conditions, input, now);
  const m = input.machine;
  const addresses = [
    ...(input.nodeIP ? [{ type: 'InternalIP', address: input.nodeIP }] : []),
    { type: 'Hostname', address: input.hostname },
  ];
  const status: V1NodeStatus = {
    ...resources(input),
    conditions,
    addresses,
    daemonEndpoints: { kubeletEndpoint: { Port: input.kubeletPort } },
    nodeInfo: {
      machineID: m.machineID,
      systemUUID: m.systemUUID,
      bootID: m.bootID,
      kernelVersion: m.kernelVersion,
      osImage: m.osImage,
      containerRuntimeVersion: input.runtime ? `${input.runtime.name}://${input.runtime.version}` : '',
      kubeletVersion: input.kubeletVersion,
      kubeProxyVersion: '',
      operatingSystem: input.os ?? 'linux',
      architecture: input.arch ?? goArch(),
    },
    images: images(input),
  };
  return { status, events };
}

/** Status equality over the fields the kubelet sets, ignoring condition heartbeats (nodeStatusHasChanged). */
export function nodeStatusChanged(a: V1NodeStatus | undefined, b: V1NodeStatus): boolean {
  const project = (s: V1NodeStatus | undefined) =>
    canonicalJson({
      capacity: s?.capacity,
      allocatable: s?.allocatable,
      addresses: s?.addresses,
      daemonEndpoints: s?.daemonEndpoints,
      nodeInfo: s?.nodeInfo,
      images: s?.images,
      conditions: (s?.conditions ?? []).map((c) => ({ ...c, lastHeartbeatTime: undefined, lastTransitionTime: iso(c.lastTransitionTime) })),
    });
  return project(a) !== project(b);
}

function iso(t: Date | string | undefined): string | undefined {
  if (t === undefined) return undefined;
  return new Date(t).toISOString();
}
