/**
 * The upstream kubelet and cAdvisor metric names that break promtool's lint conventions, kept for compatibility
 * with dashboards built on them. Every other complaint from `promtool check metrics` is a bug.
 */

/** metric → the lint messages upstream's name is known to trigger. */
export const PROMTOOL_EXCEPTIONS: Record<string, string[]> = {
  container_memory_failcnt: ['counter metrics should have "_total" suffix'],
  container_fs_inodes_total: ['non-counter metrics should not have "_total" suffix'],
  kubelet_pleg_discard_events: ['counter metrics should have "_total" suffix'],
  kubelet_evictions: ['counter metrics should have "_total" suffix'],
  kubelet_preemptions: ['counter metrics should have "_total" suffix'],
  kubelet_evented_pleg_connection_error_count: ['counter metrics should have "_total" suffix', 'non-histogram and non-summary metrics should not have "_count" suffix'],
  kubelet_evented_pleg_connection_success_count: ['counter metrics should have "_total" suffix', 'non-histogram and non-summary metrics should not have "_count" suffix'],
  cadvisor_version_info: ["label names should be written in 'snake_case' not 'camelCase'"],
  kubelet_pod_resources_endpoint_requests_list: ['counter metrics should have "_total" suffix'],
  kubelet_pod_resources_endpoint_requests_get_allocatable: ['counter metrics should have "_total" suffix'],
  kubelet_pod_resources_endpoint_requests_get: ['counter metrics should have "_total" suffix'],
  kubelet_pod_resources_endpoint_errors_list: ['counter metrics should have "_total" suffix'],
  kubelet_pod_resources_endpoint_errors_get_allocatable: ['counter metrics should have "_total" suffix'],
  kubelet_pod_resources_endpoint_errors_get: ['counter metrics should have "_total" suffix'],
  kubelet_topology_manager_admission_duration_ms: ['metric names should not contain abbreviated units'],
};

/** promtool's output lines (`<metric> <message>`) that are not on the exception list. */
export function unexpectedLint(output: string): string[] {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.filter((l) => {
    const sp = l.indexOf(' ');
    return !(PROMTOOL_EXCEPTIONS[l.slice(0, sp)] ?? []).includes(l.slice(sp + 1));
  });
}
