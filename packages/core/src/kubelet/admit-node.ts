/** The node as pod admission sees it: labels, allocatable (capacity − reserved − hard eviction), pressure. */
import type { AdmitNode } from '../lifecycle/types.ts';
import type { KubeletConfig } from './config.ts';

export function admitNodeOf(
  c: KubeletConfig,
  fromCm: { cpuMilli: number; memoryBytes: number } | undefined,
  pressure: AdmitNode['pressure'],
): AdmitNode {
  // The configured allocatable wins; else the container manager's, when the kubelet has one.
  const alloc = c.allocatable ?? fromCm;
  return {
    name: c.nodeName,
    labels: { 'kubernetes.io/hostname': c.nodeName, 'kubernetes.io/os': 'linux', ...(c.nodeLabels ?? {}) },
    allocatable: {
      cpuMilli: alloc?.cpuMilli ?? Number.MAX_SAFE_INTEGER,
      memoryBytes: alloc?.memoryBytes ?? Number.MAX_SAFE_INTEGER,
      pods: c.maxPods,
    },
    pressure,
  };
}
