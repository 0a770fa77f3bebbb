/**
 * Wraps a CriClient so every unary CRI call is timed into the metrics seam with the kubelet's operation
 * names (kubelet_runtime_operations_* operation_type: run_podsandbox, create_container, list_containers...).
 */
import type { CriClient } from '../cri/types.ts';
import type { Clock } from '../util/clock.ts';
import type { RuntimeMetrics } from './types.ts';

/** camelCase CRI method → the kubelet's snake_case operation name (listPodSandbox → list_podsandbox). */
export function operationName(method: string): string {
  if (method === 'updateContainerResources') return 'update_container'; // instrumented_services.go
  return method
    .replace(/PodSandbox/g, 'Podsandbox')
    .replace(/^podSandbox/, 'podsandbox')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

const UNTIMED = new Set(['endpoint', 'close', 'getContainerEvents']);

export function instrumentCri(cri: CriClient, metrics: RuntimeMetrics, clock: Clock): CriClient {
  return new Proxy(cri, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || UNTIMED.has(prop) || typeof v !== 'function') return v;
      const op = operationName(prop);
      return async (...args: unknown[]) => {
        const t0 = clock.monotonic();
        // kubelet_run_podsandbox_* are labelled by the request's runtime handler (instrumented_services.go).
        const handler = prop === 'runPodSandbox' ? ((args[0] as { runtimeHandler?: string } | undefined)?.runtimeHandler ?? '') : undefined;
        try {
          const r = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          metrics.observeOperation(op, (clock.monotonic() - t0) / 1000, false, handler);
          return r;
        } catch (err) {
          metrics.observeOperation(op, (clock.monotonic() - t0) / 1000, true, handler);
          throw err;
        }
      };
    },
  });
}
