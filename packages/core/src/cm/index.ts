/** @nodelet/core/cm: the container manager's view of the host (cgroup and mount files). */
export { createNodeHostFs } from './node-host-fs.ts';
export { CPUSet } from './topology/cpuset.ts';
export { type CpuManagerSettings, DEFAULT_CPU_MANAGER_RECONCILE_PERIOD_MS } from './cpumanager/cpu-manager-factory.ts';
