/**
 * The topology manager (topology_manager.go v1.28): built from `topologyManagerPolicy`, `topologyManagerScope`
 * and `topologyManagerPolicyOptions` with the kubelet's start-up errors, it is the kubelet's resource-allocation
 * admit handler — hints from the device, CPU and memory managers merged by the policy, TopologyAffinityError
 * when the policy refuses, then each provider's allocation — and the Store its providers read the hint from.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../../util/logger.ts';
import type { PodAdmitHandler, PodAdmitResult } from '../../lifecycle/types.ts';
import { NUMAInfo, parsePolicyOptions, type NumaNode } from './numa-info.ts';
import { newPolicy } from './policy.ts';
import { Scope } from './scope.ts';
import { MAX_ALLOWABLE_NUMA_NODES, POLICY_NONE, SCOPE_CONTAINER, SCOPE_POD, type HintProvider, type Policy, type Store, type TopologyHint } from './types.ts';

export interface TopologyManagerOptions {
  /** `topologyManagerPolicy` (default none). */
  policy?: string;
  /** `topologyManagerScope` (default container). */
  scope?: string;
  /** `topologyManagerPolicyOptions`. */
  policyOptions?: Readonly<Record<string, string>>;
  /** The machine's NUMA nodes (ids, distances). */
  numaNodes: readonly NumaNode[];
  logger: Logger;
  /** kubelet_topology_manager_admission_{requests_total,errors_total,duration_ms}. */
  metrics?: TopologyManagerMetrics;
  /** For the admission duration (ms). */
  now?: () => number;
}

export interface TopologyManagerMetrics {
  admissionRequests: { inc(): void };
  admissionErrors: { inc(): void };
  admissionDuration: { observe(ms: number): void };
}

export class TopologyManager implements Store {
  private constructor(
    private readonly scope: Scope,
    private readonly opts: TopologyManagerOptions,
  ) {}

  /** NewManager: throws the kubelet's errors (unknown policy / scope / option, too many NUMA nodes). */
  static create(opts: TopologyManagerOptions): TopologyManager {
    const policyName = opts.policy ?? POLICY_NONE;
    const scopeName = opts.scope ?? SCOPE_CONTAINER;
    if (policyName === POLICY_NONE) {
      opts.logger.info('Creating topology manager with none policy');
      return new TopologyManager(Scope.none(opts.logger), opts);
    }
    const policyOpts = parsePolicyOptions(opts.policyOptions);
    opts.logger.info('Creating topology manager with policy per scope', { topologyPolicyName: policyName, topologyScopeName: scopeName, topologyPolicyOptions: policyOpts });
    let numaInfo: NUMAInfo;
    try {
      numaInfo = NUMAInfo.of(opts.numaNodes, policyOpts);
    } catch (err) {
      throw new Error(`cannot discover NUMA topology: ${(err as Error).message}`);
    }
    if (numaInfo.nodes.length > MAX_ALLOWABLE_NUMA_NODES) throw new Error(`unsupported on machines with more than ${MAX_ALLOWABLE_NUMA_NODES} NUMA Nodes`);
    const policy = newPolicy(policyName, numaInfo, policyOpts);
    if (scopeName !== SCOPE_CONTAINER && scopeName !== SCOPE_POD) throw new Error(`unknown scope: "${scopeName}"`);
    return new TopologyManager(new Scope(scopeName, policy, opts.logger), opts);
  }

  get scopeName(): string {
    return this.scope.name;
  }

  addHintProvider(p: HintProvider): void {
    this.scope.addHintProvider(p);
  }

  getAffinity(podUid: string, containerName: string): TopologyHint {
    return this.scope.getAffinity(podUid, containerName);
  }

  getPolicy(): Policy {
    return this.scope.policy;
  }

  addContainer(pod: V1Pod, container: V1Container, containerId: string): void {
    this.scope.addContainer(pod, container, containerId);
  }

  removeContainer(containerId: string): void {
    this.scope.removeContainer(containerId);
  }

  /** The kubelet's GetAllocateResourcesPodAdmitHandler. */
  readonly admitHandler: PodAdmitHandler = { name: 'topologymanager', admit: (attrs) => this.admit(attrs.pod) };

  admit(pod: V1Pod): PodAdmitResult {
    const { logger, metrics } = this.opts;
    const now = this.opts.now ?? (() => performance.now());
    logger.info('Topology Admit Handler', { podUID: pod.metadata?.uid, podNamespace: pod.metadata?.namespace, podName: pod.metadata?.name });
    metrics?.admissionRequests.inc();
    const t0 = now();
    const result = this.scope.admit(pod);
    if (!result.admit && this.scope.name !== 'none') metrics?.admissionErrors.inc();
    metrics?.admissionDuration.observe(now() - t0);
    return result;
  }
}
