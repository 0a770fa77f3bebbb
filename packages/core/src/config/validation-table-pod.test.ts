// The API server's verdicts (v1.28 pkg/apis/core/validation, ValidatePodSpec and what it calls) on manifests
// about pod-level fields: volumes, DNS, host aliases, tolerations, affinity, security context, host network.
// Each row names the function whose rule it follows; messages are written from that source.
import { c0, onC0, onSpec, runTable, spec, type Row } from './testing/validation-table.ts';

const SUBDOMAIN = (v: string) =>
  `Invalid value: "${v}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
const LABEL = (v: string) =>
  `Invalid value: "${v}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;
const NOT_IP = (v: string) => `Invalid value: "${v}": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`;
const TERM = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';
const nodeAffinity = (operator: string, values?: string[]) => onSpec({
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator, values }] }] } } },
});
const downward = (item: object) => (p: Parameters<typeof spec>[0]) => void (spec(p).volumes = [{ name: 'info', downwardAPI: { items: [item as never] } }]);

const rows: Row[] = [
  // ValidateHostAliases: IsValidIP and DNS-1123 subdomain hostnames.
  ['hostAliases (IPv4 and IPv6)', onSpec({ hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local', 'bar'] }, { ip: '::1', hostnames: ['six'] }] }), []],
  // validatePodDNSConfig: a trailing dot in a search domain is allowed.
  ['dnsPolicy None with a dnsConfig', onSpec({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: ['ns1.svc.cluster.local.'], options: [{ name: 'ndots', value: '2' }] } }), []],
  ['dnsConfig options beside ClusterFirst', onSpec({ dnsPolicy: 'ClusterFirst', dnsConfig: { options: [{ name: 'single-request-reopen' }] } }), []],
  // ValidateTolerations.
  ['a toleration of everything', onSpec({ tolerations: [{ operator: 'Exists' }] }), []],
  ['a NoExecute toleration with seconds', onSpec({ tolerations: [{ key: 'example.com/special', operator: 'Equal', value: 'yes', effect: 'NoExecute', tolerationSeconds: 60 }] }), []],
  ['a key-only toleration', onSpec({ tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }] }), []],
  // validatePodSpecSecurityContext.
  ['pod security context ids, fsGroupChangePolicy, seccomp', onSpec({
    securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000], fsGroupChangePolicy: 'OnRootMismatch', seccompProfile: { type: 'RuntimeDefault' } },
  }), []],
  ['a net sysctl without hostNetwork', onSpec({ securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65000' }] } }), []],
  ['an ipc sysctl with hostNetwork', onSpec({ hostNetwork: true, securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }] } }), []],
  ['shareProcessNamespace without hostPID', onSpec({ shareProcessNamespace: true }), []],
  // validatePodHostNetworkDeps: a hostPort left out is defaulted to the containerPort.
  ['hostNetwork with a containerPort only', (p) => {
    spec(p).hostNetwork = true;
    c0(p).ports = [{ containerPort: 8080 }];
  }, []],
  // ValidatePodSpec has no rule for a negative grace period (a warning: "treated as 1").
  ['terminationGracePeriodSeconds -1', onSpec({ terminationGracePeriodSeconds: -1 }), []],
  ['activeDeadlineSeconds 30', onSpec({ activeDeadlineSeconds: 30 }), []],
  // ValidateNodeSelectorRequirement / ValidatePreferredSchedulingTerms / validatePodAffinityTerm.
  ['required node affinity In', nodeAffinity('In', ['ssd']), []],
  ['preferred node affinity weight 50', onSpec({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } }] } } }), []],
  ['pod anti-affinity by hostname', onSpec({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } }] } } }), []],
  // SetDefaults_PodSpec: an empty restartPolicy is defaulted to Always.
  ['restartPolicy ""', onSpec({ restartPolicy: '' }), []],
  ['hostname and subdomain', onSpec({ hostname: 'web-0', subdomain: 'svc' }), []],
  // The kubelet's static pod defaulting (pkg/kubelet/config/common.go applyDefaults) replaces spec.nodeName before validating.
  ['a static pod naming another node in any form', onSpec({ nodeName: 'Other_Node' }), []],
  ['runtimeClassName and priorityClassName', onSpec({ runtimeClassName: 'runc-fast', priorityClassName: 'high' }), []],
  ['a readiness gate', onSpec({ readinessGates: [{ conditionType: 'example.com/ready' }] }), []],
  ['a nodeSelector and os linux', onSpec({ nodeSelector: { 'kubernetes.io/os': 'linux' }, os: { name: 'linux' } }), []],
  // validateDownwardAPIVolumeFile: labels and a resource of a named container.
  ['a downwardAPI volume with labels and a container resource', (p) => {
    spec(p).volumes = [{ name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'mem', resourceFieldRef: { containerName: 'app', resource: 'limits.memory' } }] } }];
  }, []],

  // validateVolumeSource: one source per volume.
  ['a volume with two sources', onSpec({ volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/tmp' } }] }), ['spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type']],
  ['a downwardAPI resource without containerName', downward({ path: 'mem', resourceFieldRef: { resource: 'limits.memory' } }), ['spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value']],
  // validVolumeDownwardAPIFieldPathExpressions: spec.nodeName is for env only.
  ['a downwardAPI file of spec.nodeName', downward({ path: 'node', fieldRef: { fieldPath: 'spec.nodeName' } }), [
    'spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
  ]],
  // validatePodDNSConfig / validateDNSPolicy.
  ['dnsPolicy None without dnsConfig', onSpec({ dnsPolicy: 'None' }), ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
  ['dnsPolicy Cluster', onSpec({ dnsPolicy: 'Cluster' }), ['spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']],
  ['a nameserver that is no IP', onSpec({ dnsConfig: { nameservers: ['dns.local'] } }), [`spec.dnsConfig.nameservers[0]: ${NOT_IP('dns.local')}`]],
  ['four nameservers', onSpec({ dnsConfig: { nameservers: ['1.1.1.1', '1.0.0.1', '8.8.8.8', '8.8.4.4'] } }), [
    'spec.dnsConfig.nameservers: Invalid value: []string{"1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4"}: must not have more than 3 nameservers',
  ]],
  ['a host alias IP out of range', onSpec({ hostAliases: [{ ip: '999.1.1.1', hostnames: ['a'] }] }), [`spec.hostAliases[0].ip: ${NOT_IP('999.1.1.1')}`]],
  ['a host alias hostname with an underscore', onSpec({ hostAliases: [{ ip: '10.0.0.1', hostnames: ['Foo_bar'] }] }), [`spec.hostAliases[0].hostnames[0]: ${SUBDOMAIN('Foo_bar')}`]],
  // ValidateTolerations.
  ['a toleration without key or Exists', onSpec({ tolerations: [{ value: 'x' }] }), [
    'spec.tolerations[0].operator: Invalid value: "": operator must be Exists when `key` is empty, which means "match all values and all keys"',
  ]],
  ['tolerationSeconds on a NoSchedule toleration', onSpec({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] }), [
    `spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
  ]],
  // validatePodSpecSecurityContext / validateSysctls / ValidateHostSysctl / validateSeccompProfileField.
  ['pod runAsUser -1', onSpec({ securityContext: { runAsUser: -1 } }), ['spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive']],
  ['a net sysctl with hostNetwork', onSpec({ hostNetwork: true, securityContext: { sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }] } }), [
    `spec.securityContext.sysctls[0].name: Invalid value: "net.ipv4.ip_forward": may not be specified when 'hostNetwork' is true`,
  ]],
  ['seccomp Localhost without a profile', onSpec({ securityContext: { seccompProfile: { type: 'Localhost' } } }), [
    'spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
  ]],
  ['fsGroupChangePolicy Sometimes', onSpec({ securityContext: { fsGroupChangePolicy: 'Sometimes' } }), [
    'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
  ]],
  // validatePodHostNetworkDeps.
  ['hostNetwork with a different hostPort', (p) => {
    spec(p).hostNetwork = true;
    c0(p).ports = [{ containerPort: 8080, hostPort: 9090 }];
  }, ['spec.containers[0].ports[0].hostPort: Invalid value: 9090: must match `containerPort` when `hostNetwork` is true']],
  ['activeDeadlineSeconds 0', onSpec({ activeDeadlineSeconds: 0 }), ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
  ['node affinity In without values', nodeAffinity('In'), [`${TERM}[0].matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`]],
  ['restartPolicy Sometimes', onSpec({ restartPolicy: 'Sometimes' }), ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
  ['a hostname with an underscore', onSpec({ hostname: 'web_0' }), [`spec.hostname: ${LABEL('web_0')}`]],
  // ValidatePodCreate: ephemeral containers only through their subresource.
  ['ephemeral containers on create', onSpec({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }), ['spec.ephemeralContainers: Forbidden: cannot be set on create']],
  // validateOS.
  ['os plan9', onSpec({ os: { name: 'plan9' } }), ['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"']],
  ['a probe grace period on readiness', onC0({ readinessProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 5 } }), [
    'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes',
  ]],
];

runTable('validation table (pod)', rows);
