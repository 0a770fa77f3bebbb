/** @nodelet/core/container: the labels the kubelet puts on CRI sandboxes and containers. */
export { POD_NAMESPACE_LABEL } from './labels.ts';
