// The API server's verdicts (v1.28 pkg/apis/core/validation) on manifests about containers: names, images,
// ports, mounts, resources, security context, lifecycle and sidecars. Each row names the function whose rule it
// follows; messages are written from that source, not from this code's output.
import { c0, onC0, onSpec, runTable, spec, type Row } from './testing/validation-table.ts';

const C = 'spec.containers[0]';
const exec = { exec: { command: ['true'] } };
const app2 = { name: 'app2', image: 'busybox' };

const rows: Row[] = [
  ['the minimal pod', () => {}, []],
  // validateContainers / validateInitContainers: a sidecar (restartPolicy Always) may have probes and hooks.
  ['a sidecar init container with probes and a preStop hook', onSpec({
    initContainers: [{ name: 'proxy', image: 'busybox', restartPolicy: 'Always', readinessProbe: exec, lifecycle: { preStop: exec } }],
  }), []],
  ['a postStart exec hook', onC0({ lifecycle: { postStart: exec } }), []],
  // ValidateResourceRequirements.
  ['requests below limits', onC0({ resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } } }), []],
  ['an extended resource with request equal to limit', onC0({ resources: { requests: { 'example.com/foo': '2' }, limits: { 'example.com/foo': '2' } } }), []],
  ['hugepages beside memory', onC0({ resources: { limits: { 'hugepages-2Mi': '4Mi', memory: '64Mi' } } }), []],
  // validatePullPolicy, terminationMessagePolicy in validateContainerCommon.
  ['imagePullPolicy Never and FallbackToLogsOnError', onC0({ imagePullPolicy: 'Never', terminationMessagePolicy: 'FallbackToLogsOnError' }), []],
  // ValidateVolumeMounts: a relative subPath, a subPathExpr.
  ['a volumeMount with a relative subPath and one with subPathExpr', (p) => {
    spec(p).volumes = [{ name: 'data', emptyDir: {} }];
    c0(p).volumeMounts = [{ name: 'data', mountPath: '/data', subPath: 'a/b' }, { name: 'data', mountPath: '/logs', subPathExpr: '$(POD_NAME)', readOnly: true }];
  }, []],
  // ValidateSecurityContext / validateSeccompProfileField.
  ['container seccomp Localhost with a relative profile', onC0({ securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } } }), []],
  ['capabilities added with allowPrivilegeEscalation false, procMount Default', onC0({
    securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_ADMIN'] }, procMount: 'Default' },
  }), []],
  // checkHostPortConflicts keys on protocol/hostIP/hostPort; init containers are checked one by one.
  ['the same hostPort over TCP and UDP', onC0({ ports: [{ containerPort: 53, hostPort: 5353 }, { containerPort: 53, hostPort: 5353, protocol: 'UDP' }] }), []],
  ['an init container with the app container\'s hostPort', (p) => {
    c0(p).ports = [{ containerPort: 80, hostPort: 8080 }];
    spec(p).initContainers = [{ name: 'init', image: 'busybox', ports: [{ containerPort: 80, hostPort: 8080 }] }];
  }, []],

  // ValidateVolumeMounts: the volume must exist (issue #15's example).
  ['a volumeMount naming no volume', onC0({ volumeMounts: [{ name: 'x', mountPath: '/x' }] }), [`${C}.volumeMounts[0].name: Not found: "x"`]],
  ['no image', onC0({ image: '' }), [`${C}.image: Required value`]],
  // validateContainerOnlyForPod.
  ['an image with a trailing space', onC0({ image: 'busybox ' }), [`${C}.image: Invalid value: "busybox ": must not have leading or trailing whitespace`]],
  ['two containers named alike', onSpec({ containers: [{ name: 'app', image: 'a' }, { name: 'app', image: 'b' }] }), ['spec.containers[1].name: Duplicate value: "app"']],
  // validateContainerCommon: Required; validateContainers: a second empty name is also a duplicate of "".
  ['two containers without names', onSpec({ containers: [{ name: '', image: 'a' }, { name: '', image: 'b' }] }), [
    'spec.containers[0].name: Required value',
    'spec.containers[1].name: Required value',
    'spec.containers[1].name: Duplicate value: ""',
  ]],
  ['an init container named as an app container', onSpec({ initContainers: [{ name: 'app', image: 'busybox' }] }), ['spec.initContainers[0].name: Duplicate value: "app"']],
  // validateContainerPorts.
  ['a port without containerPort', onC0({ ports: [{ name: 'http' } as never] }), [`${C}.ports[0].containerPort: Required value`]],
  ['two ports named alike', onC0({ ports: [{ name: 'http', containerPort: 80 }, { name: 'http', containerPort: 81 }] }), [`${C}.ports[1].name: Duplicate value: "http"`]],
  ['a port name of 16 characters', onC0({ ports: [{ name: 'metrics-endpoint', containerPort: 80 }] }), [
    `${C}.ports[0].name: Invalid value: "metrics-endpoint": must be no more than 15 characters`,
  ]],
  ['two containers on one hostPort', onSpec({ containers: [{ name: 'app', image: 'a', ports: [{ containerPort: 80, hostPort: 8080 }] }, { ...app2, ports: [{ containerPort: 81, hostPort: 8080 }] }] }), [
    'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"',
  ]],
  // validateInitContainers: probes and hooks only for sidecars; restartPolicy only Always.
  ['a probe on a regular init container', onSpec({ initContainers: [{ name: 'init', image: 'busybox', readinessProbe: exec }] }), [
    'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
  ]],
  ['an init container with restartPolicy OnFailure', onSpec({ initContainers: [{ name: 'init', image: 'busybox', restartPolicy: 'OnFailure' }] }), [
    'spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
  ]],
  // validateContainers: restartPolicy is for init containers only.
  ['an app container with restartPolicy Always', onC0({ restartPolicy: 'Always' }), [`${C}.restartPolicy: Forbidden: may not be set for non-init containers`]],
  ['a preStop hook without a handler', onC0({ lifecycle: { preStop: {} } }), [`${C}.lifecycle.preStop: Required value: must specify a handler type`]],
  // validateSleepAction (the sleep handler came in v1.29): within the pod's grace period (defaulted to 30).
  ['a preStop sleep longer than the grace period', onC0({ lifecycle: { preStop: { sleep: { seconds: 60 } } } }), [
    `${C}.lifecycle.preStop.sleep: Invalid value: 60: must be greater than 0 and less than terminationGracePeriodSeconds (30)`,
  ]],
  // ValidateResourceRequirements.
  ['a request above the limit', onC0({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }), [
    `${C}.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
  ]],
  ['an extended resource requested without a limit', onC0({ resources: { requests: { 'example.com/foo': '1' } } }), [
    `${C}.resources.limits: Required value: Limit must be set for non overcommitable resources`,
  ]],
  ['an unknown unprefixed resource', onC0({ resources: { limits: { gpu: '1' } } }), [`${C}.resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers`]],
  ['hugepages without cpu or memory', onC0({ resources: { limits: { 'hugepages-2Mi': '4Mi' } } }), [`${C}.resources: Forbidden: HugePages require cpu or memory`]],
  ['terminationMessagePolicy Always', onC0({ terminationMessagePolicy: 'Always' }), [
    `${C}.terminationMessagePolicy: Unsupported value: "Always": supported values: "File", "FallbackToLogsOnError"`,
  ]],
  ['imagePullPolicy Sometimes', onC0({ imagePullPolicy: 'Sometimes' }), [`${C}.imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`]],
  // ValidateSecurityContext: IsValidUserID; the privileged conflict prints the security context (Go's %#v there, JSON here).
  ['container runAsUser -1', onC0({ securityContext: { runAsUser: -1 } }), [`${C}.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive`]],
  ['privileged without privilege escalation', onC0({ securityContext: { allowPrivilegeEscalation: false, privileged: true } }), [
    `${C}.securityContext: Invalid value: {"allowPrivilegeEscalation":false,"privileged":true}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`,
  ]],
  ['procMount Masked', onC0({ securityContext: { procMount: 'Masked' } }), [`${C}.securityContext.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"`]],
];

runTable('validation table (containers)', rows);
