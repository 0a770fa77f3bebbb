/**
 * @nodelet/core/apiclient: the API-server client (API-server mode only). createApiClientFromKubeconfig loads
 * @kubernetes/client-node: import it with import() where it is used.
 */
export { createApiClientFromKubeconfig } from './client.ts';
export { readKubeconfig, type KubeconfigInfo, type KubeconfigRead } from './kubeconfig-info.ts';
export type { ApiClient, ApiRequest, ApiResult } from './types.ts';
