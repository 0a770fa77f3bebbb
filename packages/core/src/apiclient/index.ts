/**
 * @nodelet/core/apiclient: the API-server client (API-server mode only). createApiClientFromKubeconfig loads
 * @kubernetes/client-node: import it with import() where it is used.
 */
export { createApiClientFromKubeconfig } from './client.ts';
export type { ApiClient } from './types.ts';
