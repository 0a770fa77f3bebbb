/**
 * (nodelet) --runtime-class-handlers: RuntimeClass name → CRI runtime handler for a node without an API server.
 * The kubelet has no such setting (standalone, it ignores runtimeClassName): nodelet resolves static pods'
 * classes through this map, a class not in it fails the pod's sandbox (CreatePodSandboxError). With --kubeconfig
 * the node.k8s.io/v1 RuntimeClass objects decide and this map is not used. Names are checked as the API server
 * checks a RuntimeClass: the name a DNS-1123 subdomain, the handler a DNS-1123 label.
 */
import { validateDnsLabel, validateDnsSubdomain } from '@nodelet/core/config';
import type { FlagSpec } from './flag-spec.ts';

export const RUNTIME_CLASS_FLAG_SPECS: FlagSpec<'runtimeClassHandlers'>[] = [
  {
    name: 'runtime-class-handlers',
    kind: 'map=',
    key: 'runtimeClassHandlers',
    help: '(nodelet) RuntimeClass name=handler pairs for pods when there is no API server: runtimeClassName → CRI runtime handler; an unlisted class fails the sandbox. Not used with --kubeconfig (RuntimeClass objects).',
  },
];

/** With --kubeconfig the RuntimeClass objects decide: say that the map is not used. */
export function runtimeClassWarning(c: { runtimeClassHandlers?: Record<string, string>; kubeconfig?: string }): string | undefined {
  if (!c.kubeconfig || Object.keys(c.runtimeClassHandlers ?? {}).length === 0) return undefined;
  return '--runtime-class-handlers is not used with --kubeconfig: runtime handlers come from the API server\'s RuntimeClass objects';
}

export function validateRuntimeClasses(c: { runtimeClassHandlers?: Record<string, string> }): string | undefined {
  for (const [name, handler] of Object.entries(c.runtimeClassHandlers ?? {})) {
    const errors = [...validateDnsSubdomain(`runtimeClassHandlers[${JSON.stringify(name)}] name`, name), ...validateDnsLabel(`runtimeClassHandlers[${JSON.stringify(name)}] handler`, handler)];
    if (errors.length > 0) return errors[0];
  }
  return undefined;
}
