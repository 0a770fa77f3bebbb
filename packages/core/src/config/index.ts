/** @nodelet/core/config: pod validation as the kubelet's sources apply it (the API-server double admits pods with it). */
export { checkTypes } from './type-check.ts';
export { validateTypedPod } from './validation.ts';
export { validateDnsLabel, validateDnsSubdomain } from './meta-validation.ts';
export { FileSource } from './file-source.ts'; // bench/manifest-scan.ts measures its scan
