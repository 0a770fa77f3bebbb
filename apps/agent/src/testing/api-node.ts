/**
 * API-server mode test setup shared by the agent's integration tests and the e2e specs: a static pod manifest,
 * pods bound to a node, and an agent process joined to an API server TEST DOUBLE with the fast test settings
 * (status every 2 s, manifests every 1 s, housekeeping 1 s, AlwaysAllow on 10250, a static pod "st"), under its own
 * --cgroup-root, removed by `cleanup()` (for containerd, call removeCgroupTree(testCgroupRoot(node)) again once
 * containerd has removed its pods).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApiServerDouble, type ApiServerDouble, type KubeObject } from '@nodelet/apiserver-double';
import { removeCgroupTree } from './cgroups.ts';
import { nodeAgent, type NodeAgent } from './cluster-node.ts';
import type { KubeletOverrides } from '../kubelet-factory.ts';

/** A container script that runs until SIGTERM and then exits 0. */
export const LOOP = "trap 'exit 0' TERM; while true; do sleep 1; done";
export const HOST_IMAGE = 'nodelet.local/host:latest';

export interface ContainerOptions {
  /** Default the reserved host image (no pull). */
  image?: string;
  /** Default Never for nodelet.local images, else IfNotPresent. */
  pullPolicy?: string;
  /** `sh -c` script; default LOOP. */
  script?: string;
  resources?: Record<string, Record<string, string>>;
}

const pullPolicyOf = (o: ContainerOptions) => o.pullPolicy ?? ((o.image ?? HOST_IMAGE).startsWith('nodelet.local/') ? 'Never' : 'IfNotPresent');

/** A static pod manifest (default namespace, one container "main"). */
export function staticPodYaml(name = 'st', o: ContainerOptions = {}): string {
  return [
    'apiVersion: v1', 'kind: Pod', `metadata: { name: ${name}, namespace: default }`, 'spec:', '  containers:',
    '    - name: main', `      image: ${o.image ?? HOST_IMAGE}`, `      imagePullPolicy: ${pullPolicyOf(o)}`,
    `      command: ["sh", "-c", ${JSON.stringify(o.script ?? LOOP)}]`, '',
  ].join('\n');
}

/** A pod bound to `node` (as the scheduler would), one container "c". */
export function boundPod(name: string, node: string, o: ContainerOptions & { graceSeconds?: number } = {}): KubeObject & { spec: Record<string, unknown> } {
  const container = { name: 'c', image: o.image ?? HOST_IMAGE, imagePullPolicy: pullPolicyOf(o), ...(o.resources ? { resources: o.resources } : {}), command: ['sh', '-c', o.script ?? LOOP] };
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: node, terminationGracePeriodSeconds: o.graceSeconds ?? 2, containers: [container] } };
}

/** Writes `<root>/manifests/<name>.yaml`; returns the manifests dir. */
export function writeStaticPod(root: string, name: string, yaml: string): string {
  const manifests = join(root, 'manifests');
  mkdirSync(manifests, { recursive: true });
  writeFileSync(join(manifests, `${name}.yaml`), yaml);
  return manifests;
}

export interface JoinedAgentOptions {
  /** The static pod manifest "st" (default: the host image running LOOP); false for none. */
  staticPod?: string | false;
  /** More flags, evaluated at every start (so a restart can change them). */
  args?: (root: string) => string[];
  /** --container-runtime-endpoint (default: the embedded runtime). */
  endpoint?: string;
  /** A caller-owned root dir (e.g. a tmpfs mount). */
  root?: string;
  /** Kubelet constants shortened for the test (e.g. the image GC period). */
  kubelet?: KubeletOverrides;
  /** Trust the double's CA for client certificates on 10250 (--client-ca-file): the API server's own calls to
   * the kubelet (logs, exec, attach, port-forward) then authenticate. */
  trustApiServerCa?: boolean;
}

/** The cgroup root of this process's test agent `node` (its QoS and pod cgroups go under it). */
export const testCgroupRoot = (node: string) => `/nodelet-it-${node}-${process.pid}`;

/** An agent (not started) joined to `api` as `node` with a client certificate. */
export async function joinedAgent(api: ApiServerDouble, node: string, o: JoinedAgentOptions = {}): Promise<NodeAgent> {
  const cgroupRoot = testCgroupRoot(node);
  const agent = await nodeAgent(node, (root) => {
    const st = o.staticPod ?? staticPodYaml();
    const manifests = st === false ? [] : ['--pod-manifest-path', writeStaticPod(root, 'st', st)];
    const cfg = join(root, 'kubelet-config.yaml');
    writeFileSync(cfg, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: 2s\nfileCheckFrequency: 1s\nauthorization: { mode: AlwaysAllow }\n');
    const trust = o.trustApiServerCa ? ['--client-ca-file', join(root, 'cluster-ca.crt')] : [];
    if (o.trustApiServerCa) writeFileSync(trust[1]!, api.ca);
    return [...trust, '--config', cfg, '--kubeconfig', api.kubeconfigFor(node, { auth: 'cert', path: join(root, 'kubeconfig') }), '--node-ip', '127.0.0.1',
      ...manifests, '--housekeeping-interval', '1s', '--volume-stats-agg-period', '1s', '--cgroup-root', cgroupRoot, ...(o.endpoint ? ['--container-runtime-endpoint', o.endpoint] : []), ...(o.args?.(root) ?? [])];
  }, { ...(o.root ? { root: o.root } : {}), ...(o.kubelet ? { kubelet: o.kubelet } : {}) });
  const cleanup = agent.cleanup;
  agent.cleanup = async () => {
    await cleanup();
    if (process.getuid?.() === 0) removeCgroupTree(cgroupRoot);
  };
  return agent;
}

/** An API server double and one joined, started agent. Stop with `agent.cleanup()` then `api.stop()`. */
export async function startApiNode(node: string, o: JoinedAgentOptions = {}): Promise<{ api: ApiServerDouble; agent: NodeAgent }> {
  const api = await startApiServerDouble({ kubeletPreferredAddressTypes: ['InternalIP'] });
  const agent = await joinedAgent(api, node, o);
  try {
    await agent.start();
  } catch (err) {
    await agent.cleanup();
    await api.stop();
    throw err;
  }
  return { api, agent };
}
