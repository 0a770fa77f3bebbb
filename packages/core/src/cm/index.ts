/** @nodelet/core/cm: the container manager's view of the host (cgroup and mount files). */
export { createNodeHostFs } from './node-host-fs.ts';
