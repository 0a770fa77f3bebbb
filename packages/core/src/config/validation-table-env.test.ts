// The API server's verdicts (v1.28 pkg/apis/core/validation) on manifests using env, envFrom and probes: each
// row names the function whose rule it follows; messages are written from that source (apimachinery
// field.Error: `<path>: <type>: <value>: <detail>`), not from this code's output.
import { c0, onC0, runTable, type Row } from './testing/validation-table.ts';

const ENV = `spec.containers[0].env[0]`;
const ENV_FIELD_PATHS = '"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"';
const RESOURCE_PATHS = '"limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"';
const exec = { exec: { command: ['true'] } };

const rows: Row[] = [
  // validateObjectFieldSelector: a subscripted labels / annotations path is allowed in env.
  ['env fieldRef to one label', onC0({ env: [{ name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } }] }), []],
  ['env fieldRef to an annotation, apiVersion v1', onC0({ env: [{ name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['a.b/c']" } } }] }), []],
  ['env fieldRef status.podIPs', onC0({ env: [{ name: 'IPS', valueFrom: { fieldRef: { fieldPath: 'status.podIPs' } } }] }), []],
  // validateContainerResourceFieldSelector: containerName may be left out in env (this container).
  ['env resourceFieldRef limits.memory, divisor 1Mi', onC0({ env: [{ name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } }] }), []],
  ['env resourceFieldRef requests.cpu, divisor 1m', onC0({ env: [{ name: 'CPU', valueFrom: { resourceFieldRef: { containerName: 'app', resource: 'requests.cpu', divisor: '1m' } } }] }), []],
  // validateConfigMapKeySelector / validateSecretKeySelector.
  ['env configMapKeyRef', onC0({ env: [{ name: 'CONF', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'a.conf' } } }] }), []],
  ['env secretKeyRef', onC0({ env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] }), []],
  // IsEnvVarName: letters, digits, '_', '-', '.'; not starting with a digit.
  ['env name with dots and dashes', onC0({ env: [{ name: 'my.env-name', value: 'x' }] }), []],
  // ValidateEnvFrom: a prefix is an env var name; names are DNS subdomains where a trailing '-' is allowed (prefix=true).
  ['envFrom configMapRef with a prefix', onC0({ envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'cfg' } }] }), []],
  ['envFrom secretRef named with a trailing dash', onC0({ envFrom: [{ secretRef: { name: 'creds-' } }] }), []],
  // ValidatePortNumOrName checks a name's form only: the container need not declare it.
  ['a probe on a port name the container does not declare', onC0({ readinessProbe: { httpGet: { port: 'admin' } } }), []],
  ['a probe on a declared port name', onC0({ ports: [{ name: 'http', containerPort: 8080 }], livenessProbe: { httpGet: { port: 'http', path: '/healthz' } } }), []],
  // SetDefaults_Probe replaces zeros before validateProbe runs.
  ['probe period, timeout and thresholds 0', onC0({ livenessProbe: { tcpSocket: { port: 80 }, periodSeconds: 0, timeoutSeconds: 0, successThreshold: 0, failureThreshold: 0 } }), []],
  // validateReadinessProbe has no successThreshold rule; liveness and startup need 1.
  ['readiness successThreshold 3', onC0({ readinessProbe: { ...exec, successThreshold: 3 } }), []],
  ['grpc probe', onC0({ livenessProbe: { grpc: { port: 9090 } } }), []],
  ['liveness terminationGracePeriodSeconds 10', onC0({ livenessProbe: { ...exec, terminationGracePeriodSeconds: 10 } }), []],

  ['env name starting with a digit', onC0({ env: [{ name: '1BAD', value: 'x' }] }), [
    `${ENV}.name: Invalid value: "1BAD": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
  ]],
  ['env without a name', onC0({ env: [{ name: '', value: 'x' }] }), [`${ENV}.name: Required value`]],
  // validateEnvVarValueFrom: exactly one source, and no value beside it.
  ['env valueFrom without a source', onC0({ env: [{ name: 'A', valueFrom: {} }] }), [
    `${ENV}.valueFrom: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\` or \`secretKeyRef\``,
  ]],
  ['env value and valueFrom', onC0({ env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }), [
    `${ENV}.valueFrom: Invalid value: "": may not be specified when \`value\` is not empty`,
  ]],
  ['env valueFrom with two sources', onC0({ env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } }] }), [
    `${ENV}.valueFrom: Invalid value: "": may not have more than one field specified at a time`,
  ]],
  // validEnvDownwardAPIFieldPathExpressions: spec.restartPolicy converts but is not offered to env.
  ['env fieldRef spec.restartPolicy', onC0({ env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.restartPolicy' } } }] }), [
    `${ENV}.valueFrom.fieldRef.fieldPath: Unsupported value: "spec.restartPolicy": supported values: ${ENV_FIELD_PATHS}`,
  ]],
  // ConvertDownwardAPIFieldLabel refuses an unknown field label.
  ['env fieldRef to an unknown field', onC0({ env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.foo' } } }] }), [
    `${ENV}.valueFrom.fieldRef.fieldPath: Invalid value: "spec.foo": error converting fieldPath: field label not supported: spec.foo`,
  ]],
  ['env resourceFieldRef to an unknown resource', onC0({ env: [{ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } }] }), [
    `${ENV}.valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: ${RESOURCE_PATHS}`,
  ]],
  // validateContainerResourceDivisor: the value printed is the resource, not the divisor.
  ['env resourceFieldRef cpu with a memory divisor', onC0({ env: [{ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1Mi' } } }] }), [
    `${ENV}.valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
  ]],
  ['env configMapKeyRef without a key', onC0({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cfg', key: '' } } }] }), [
    `${ENV}.valueFrom.configMapKeyRef.key: Required value`,
  ]],
  // validateHandler: exactly one handler.
  ['probe with two handlers', onC0({ readinessProbe: { ...exec, tcpSocket: { port: 80 } } }), [
    'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
  ]],
  // validateProbe: ValidateNonnegativeField.
  ['probe failureThreshold -1', onC0({ livenessProbe: { ...exec, failureThreshold: -1 } }), [
    'spec.containers[0].livenessProbe.failureThreshold: Invalid value: -1: must be greater than or equal to 0',
  ]],
  ['liveness successThreshold 2', onC0({ livenessProbe: { ...exec, successThreshold: 2 } }), ['spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1']],
  // validateHTTPGetAction: IsHTTPHeaderName, reported at httpHeaders (no index).
  ['probe header name with a space', onC0({ readinessProbe: { httpGet: { port: 80, httpHeaders: [{ name: 'X Bad', value: '1' }] } } }), [
    `spec.containers[0].readinessProbe.httpGet.httpHeaders: Invalid value: "X Bad": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
  ]],
  ['probe on a port name of the wrong form', (p) => void (c0(p).startupProbe = { tcpSocket: { port: 'Web' } }), [
    'spec.containers[0].startupProbe.tcpSocket.port: Invalid value: "Web": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
  ]],
];

runTable('validation table (env, probes)', rows);
