/**
 * `kubectl describe pod` for the pod as the agent holds it: the fields, their order, labels and layout of
 * kubectl's describePod (k8s.io/kubectl pkg/describe/describe.go), aligned by the same tabwriter. Times are
 * printed as kubectl prints them (RFC1123Z) in UTC; events come from this kubelet ("From: kubelet").
 */
import type { K8sBusEvent, WirePod } from '../../lib/api-types.ts';
import { toMillis, type TimeLike } from '../../lib/format.ts';
import { collapseK8sEvents } from './k8s-events.ts';
import { tabwrite } from './tabwriter.ts';

type Spec = NonNullable<WirePod['spec']>;
type Container = Spec['containers'][number];
type Status = NonNullable<NonNullable<WirePod['status']>['containerStatuses']>[number];
type State = NonNullable<Status['state']>;
type Probe = NonNullable<Container['livenessProbe']>;
type Volume = NonNullable<Spec['volumes']>[number];

const L = ['', '  ', '    ', '      '] as const;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

/** Go's time.RFC1123Z in UTC: "Thu, 26 Nov 2026 06:00:00 +0000". */
export function rfc1123z(t: TimeLike): string {
  const ms = toMillis(t);
  if (ms === undefined) return '<unknown>';
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]}, ${pad2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0000`;
}

/** Go's duration.HumanDuration of now − t (translateTimestampSince): "45s", "3m20s", "2h5m", "3d4h"; "<invalid>" ahead of now. */
export function since(t: TimeLike, now: number): string {
  const ms = toMillis(t);
  if (ms === undefined) return '<unknown>';
  const d = now - ms;
  const seconds = Math.trunc(d / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${hours / 24}d` : `${Math.trunc(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  const years = Math.trunc(hours / 24 / 365);
  if (hours < 24 * 365 * 8) return Math.trunc(hours / 24) % 365 === 0 ? `${years}y` : `${years}y${Math.trunc(hours / 24) % 365}d`;
  return `${years}y`;
}

/** printAnnotationsMultiline: "key: value", sorted; long or multi-line values on their own lines, shortened. */
function annotations(out: string[], m: Record<string, string> | undefined): void {
  const keys = Object.keys(m ?? {}).filter((k) => k !== 'kubectl.kubernetes.io/last-applied-configuration').sort();
  if (keys.length === 0) {
    out.push('Annotations:\t<none>');
    return;
  }
  const shorten = (s: string) => (s.length > 138 ? `${s.slice(0, 138)}...` : s);
  keys.forEach((k, i) => {
    const lead = i === 0 ? 'Annotations:\t' : '\t';
    const value = m![k]!.replace(/\n$/, '');
    if (value.length + k.length + 2 > 140 || value.includes('\n')) {
      out.push(`${lead}${k}:`, ...value.split('\n').map((s) => `\t  ${shorten(s)}`));
    } else out.push(`${lead}${k}: ${value}`);
  });
}

/** fieldpath.ExtractFieldPathAsString for the paths a downward API env var may name. */
function fieldValue(pod: WirePod, path: string): string {
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations)?.[m[2]!] ?? '';
  const values: Record<string, string | undefined> = {
    'metadata.name': pod.metadata?.name, 'metadata.namespace': pod.metadata?.namespace, 'metadata.uid': pod.metadata?.uid,
    'spec.nodeName': pod.spec?.nodeName, 'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.hostIP': pod.status?.hostIP, 'status.podIP': pod.status?.podIP, 'status.podIPs': pod.status?.podIPs?.map((p) => p.ip).join(','),
  };
  return values[path] ?? '';
}

/** printLabelsMultiline: "<none>", or sorted key=value, one per line. */
function multiline(out: string[], title: string, m: Record<string, string> | undefined): void {
  const keys = Object.keys(m ?? {}).sort();
  if (keys.length === 0) {
    out.push(`${title}:\t<none>`);
    return;
  }
  keys.forEach((k, i) => out.push(`${i === 0 ? `${title}:` : ''}\t${k}=${m![k]}`));
}

function describeState(out: string[], name: string, s: State | undefined): void {
  if (s?.running) {
    out.push(`${L[2]}${name}:\tRunning`, `${L[3]}Started:\t${rfc1123z(s.running.startedAt)}`);
  } else if (s?.terminated) {
    const t = s.terminated;
    out.push(`${L[2]}${name}:\tTerminated`);
    if (t.reason) out.push(`${L[3]}Reason:\t${t.reason}`);
    if (t.message) out.push(`${L[3]}Message:\t${t.message}`);
    out.push(`${L[3]}Exit Code:\t${t.exitCode}`);
    if ((t.signal ?? 0) > 0) out.push(`${L[3]}Signal:\t${t.signal}`);
    out.push(`${L[3]}Started:\t${rfc1123z(t.startedAt)}`, `${L[3]}Finished:\t${rfc1123z(t.finishedAt)}`);
  } else {
    out.push(`${L[2]}${name}:\tWaiting`);
    if (s?.waiting?.reason) out.push(`${L[3]}Reason:\t${s.waiting.reason}`);
  }
}

/** DescribeProbe, with the API server's defaults where the spec leaves a field out. */
export function describeProbe(p: Probe): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const h = p.httpGet;
    const host = h.host ?? '';
    const port = String(h.port ?? '');
    const hostPort = port ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : host;
    return `http-get ${(h.scheme ?? 'HTTP').toLowerCase()}://${hostPort}${h.path ?? ''} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${String(p.tcpSocket.port)} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function describeEnv(out: string[], c: Container, pod: WirePod): void {
  const env = c.env ?? [];
  if (env.length === 0) {
    out.push(`${L[2]}Environment:\t<none>`);
    return;
  }
  out.push(`${L[2]}Environment:`);
  for (const e of env) {
    const f = e.valueFrom;
    if (!f) {
      (e.value ?? '').split('\n').forEach((s, i) => out.push(i === 0 ? `${L[3]}${e.name}:\t${s}` : `${L[3]}\t${s}`));
    } else if (f.fieldRef) {
      out.push(`${L[3]}${e.name}:\t${fieldValue(pod, f.fieldRef.fieldPath)} (${f.fieldRef.apiVersion ?? 'v1'}:${f.fieldRef.fieldPath})`);
    } else if (f.resourceFieldRef) {
      out.push(`${L[3]}${e.name}:\t (${f.resourceFieldRef.resource})`);
    } else if (f.secretKeyRef) {
      out.push(`${L[3]}${e.name}:\t<set to the key '${f.secretKeyRef.key}' in secret '${f.secretKeyRef.name ?? ''}'>\tOptional: ${Boolean(f.secretKeyRef.optional)}`);
    } else if (f.configMapKeyRef) {
      out.push(`${L[3]}${e.name}:\t<set to the key '${f.configMapKeyRef.key}' of config map '${f.configMapKeyRef.name ?? ''}'>\tOptional: ${Boolean(f.configMapKeyRef.optional)}`);
    }
  }
}

function describeContainers(out: string[], title: string, specs: Container[], statuses: Status[], pod: WirePod): void {
  out.push(`${title}:`);
  for (const c of specs) {
    const st = statuses.find((s) => s.name === c.name);
    out.push(`${L[1]}${c.name}:`);
    if (st) out.push(`${L[2]}Container ID:\t${st.containerID ?? ''}`);
    out.push(`${L[2]}Image:\t${c.image ?? ''}`);
    if (st) out.push(`${L[2]}Image ID:\t${st.imageID ?? ''}`);
    const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', ');
    const hostPorts = (c.ports ?? []).map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', ');
    out.push(ports.includes(',') ? `${L[2]}Ports:\t${ports}` : `${L[2]}Port:\t${ports || '<none>'}`);
    out.push(hostPorts.includes(',') ? `${L[2]}Host Ports:\t${hostPorts}` : `${L[2]}Host Port:\t${hostPorts || '<none>'}`);
    if (c.restartPolicy) out.push(`${L[2]}Restart Policy:\t${c.restartPolicy}`);
    for (const [name, list] of [['Command', c.command], ['Args', c.args]] as const) {
      if (!list?.length) continue;
      out.push(`${L[2]}${name}:`);
      for (const a of list) a.split('\n').forEach((s) => out.push(`${L[3]}${s}`));
    }
    if (st) {
      describeState(out, 'State', st.state);
      if (st.lastState?.terminated) describeState(out, 'Last State', st.lastState);
      out.push(`${L[2]}Ready:\t${st.ready ? 'True' : 'False'}`, `${L[2]}Restart Count:\t${st.restartCount ?? 0}`);
    }
    for (const [name, q] of [['Limits', c.resources?.limits], ['Requests', c.resources?.requests]] as const) {
      const keys = Object.keys(q ?? {}).sort();
      if (keys.length > 0) out.push(`${L[2]}${name}:`);
      for (const k of keys) out.push(`${L[3]}${k}:\t${String(q![k])}`);
    }
    if (c.livenessProbe) out.push(`${L[2]}Liveness:\t${describeProbe(c.livenessProbe)}`);
    if (c.readinessProbe) out.push(`${L[2]}Readiness:\t${describeProbe(c.readinessProbe)}`);
    if (c.startupProbe) out.push(`${L[2]}Startup:\t${describeProbe(c.startupProbe)}`);
    describeEnv(out, c, pod);
    const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0));
    out.push(`${L[2]}Mounts:${mounts.length === 0 ? '\t<none>' : ''}`);
    for (const m of mounts) out.push(`${L[3]}${m.mountPath} from ${m.name} (${[m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [JSON.stringify(m.subPath)] : []).map((s) => `path=${s}`)].join(',')})`);
  }
}

function describeVolume(out: string[], v: Volume): void {
  const opt = (o: boolean | undefined) => String(Boolean(o));
  out.push(`${L[1]}${v.name}:`);
  if (v.hostPath) {
    out.push(`${L[2]}Type:\tHostPath (bare host directory volume)`, `${L[2]}Path:\t${v.hostPath.path}`, `${L[2]}HostPathType:\t${v.hostPath.type || '<none>'}`);
  } else if (v.emptyDir) {
    out.push(`${L[2]}Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)`, `${L[2]}Medium:\t${v.emptyDir.medium ?? ''}`, `${L[2]}SizeLimit:\t${v.emptyDir.sizeLimit ? String(v.emptyDir.sizeLimit) : '<unset>'}`);
  } else if (v.secret) {
    out.push(`${L[2]}Type:\tSecret (a volume populated by a Secret)`, `${L[2]}SecretName:\t${v.secret.secretName ?? ''}`, `${L[2]}Optional:\t${opt(v.secret.optional)}`);
  } else if (v.configMap) {
    out.push(`${L[2]}Type:\tConfigMap (a volume populated by a ConfigMap)`, `${L[2]}Name:\t${v.configMap.name ?? ''}`, `${L[2]}Optional:\t${opt(v.configMap.optional)}`);
  } else if (v.projected) {
    out.push(`${L[2]}Type:\tProjected (a volume that contains injected data from multiple sources)`);
    for (const s of v.projected.sources ?? []) {
      if (s.secret) out.push(`${L[2]}SecretName:\t${s.secret.name ?? ''}`, `${L[2]}SecretOptionalName:\t${s.secret.optional === undefined ? '<nil>' : String(s.secret.optional)}`);
      else if (s.downwardAPI) out.push(`${L[2]}DownwardAPI:\ttrue`);
      else if (s.configMap) out.push(`${L[2]}ConfigMapName:\t${s.configMap.name ?? ''}`, `${L[2]}ConfigMapOptional:\t${s.configMap.optional === undefined ? '<nil>' : String(s.configMap.optional)}`);
      else if (s.serviceAccountToken) out.push(`${L[2]}TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3607}`);
    }
  } else if (v.downwardAPI) {
    out.push(`${L[2]}Type:\tDownwardAPI (a volume populated by information about the pod)`, `${L[2]}Items:`);
    for (const it of v.downwardAPI.items ?? []) out.push(`${L[3]}${it.fieldRef?.fieldPath ?? it.resourceFieldRef?.resource ?? ''} -> ${it.path}`);
  } else if (v.persistentVolumeClaim) {
    out.push(`${L[2]}Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)`, `${L[2]}ClaimName:\t${v.persistentVolumeClaim.claimName}`, `${L[2]}ReadOnly:\t${opt(v.persistentVolumeClaim.readOnly)}`);
  } else {
    out.push(`${L[1]}<unknown>`);
  }
}

function describeTolerations(out: string[], tolerations: NonNullable<Spec['tolerations']>): void {
  if (tolerations.length === 0) {
    out.push('Tolerations:\t<none>');
    return;
  }
  // Sorted by key, as kubectl prints them (a stable sort: equal keys keep their order).
  const sorted = [...tolerations].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  sorted.forEach((t, i) => {
    let s = `${t.key ?? ''}${t.value ? `=${t.value}` : ''}${t.effect ? `:${t.effect}` : ''}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) s += ` for ${t.tolerationSeconds}s`;
    out.push(`${i === 0 ? 'Tolerations:' : ''}\t${s}`);
  });
}

function describeEvents(out: string[], events: readonly K8sBusEvent[], now: number): void {
  // kubectl sorts by lastTimestamp, oldest first (event.SortableEvents).
  const at = (e: K8sBusEvent) => toMillis(e.lastTimestamp) ?? 0;
  const rows = collapseK8sEvents(events).sort((a, b) => at(a) - at(b) || a.seq - b.seq);
  if (rows.length === 0) {
    out.push('Events:\t<none>');
    return;
  }
  out.push('Events:', `${L[1]}Type\tReason\tAge\tFrom\tMessage`, `${L[1]}----\t------\t----\t----\t-------`);
  for (const e of rows) {
    const age = e.count > 1 ? `${since(e.lastTimestamp, now)} (x${e.count} over ${since(e.firstTimestamp, now)})` : since(e.firstTimestamp, now);
    out.push(`${L[1]}${e.eventType}\t${e.reason}\t${age}\tkubelet\t${e.message.trim()}`);
  }
}

/** The text `kubectl describe pod` prints for this pod and its events. */
export function describePod(pod: WirePod, events: readonly K8sBusEvent[], now: number): string {
  const m = pod.metadata ?? {};
  const spec: Partial<Spec> = pod.spec ?? {};
  const st = pod.status ?? {};
  const out: string[] = [`Name:\t${m.name ?? ''}`, `Namespace:\t${m.namespace ?? ''}`];
  if (spec.priority !== undefined && spec.priority !== null) out.push(`Priority:\t${spec.priority}`);
  if (spec.priorityClassName) out.push(`Priority Class Name:\t${spec.priorityClassName}`);
  if (spec.runtimeClassName) out.push(`Runtime Class Name:\t${spec.runtimeClassName}`);
  if (spec.serviceAccountName) out.push(`Service Account:\t${spec.serviceAccountName}`);
  out.push(spec.nodeName ? `Node:\t${spec.nodeName}/${st.hostIP ?? ''}` : 'Node:\t<none>');
  if (st.startTime) out.push(`Start Time:\t${rfc1123z(st.startTime)}`);
  multiline(out, 'Labels', m.labels);
  annotations(out, m.annotations);
  if (m.deletionTimestamp && st.phase !== 'Failed' && st.phase !== 'Succeeded') {
    out.push(`Status:\tTerminating (lasts ${since(m.deletionTimestamp, now)})`, `Termination Grace Period:\t${m.deletionGracePeriodSeconds ?? 0}s`);
  } else {
    out.push(`Status:\t${st.phase ?? ''}`);
  }
  if (st.reason) out.push(`Reason:\t${st.reason}`);
  if (st.message) out.push(`Message:\t${st.message}`);
  const seccomp = spec.securityContext?.seccompProfile;
  if (seccomp) {
    out.push(`SeccompProfile:\t${seccomp.type}`);
    if (seccomp.type === 'Localhost') out.push(`LocalhostProfile:\t${seccomp.localhostProfile ?? ''}`);
  }
  out.push(`IP:\t${st.podIP ?? ''}`);
  if (!st.podIPs?.length) out.push('IPs:\t<none>');
  else out.push('IPs:', ...st.podIPs.map((ip) => `${L[1]}IP:\t${ip.ip}`));
  const owner = (m.ownerReferences ?? []).find((o) => o.controller);
  if (owner) out.push(`Controlled By:\t${owner.kind}/${owner.name}`);
  if (st.nominatedNodeName) out.push(`NominatedNodeName:\t${st.nominatedNodeName}`);
  if (spec.initContainers?.length) describeContainers(out, 'Init Containers', spec.initContainers, st.initContainerStatuses ?? [], pod);
  describeContainers(out, 'Containers', spec.containers ?? [], st.containerStatuses ?? [], pod);
  if (st.conditions?.length) {
    out.push('Conditions:', `${L[1]}Type\tStatus`);
    for (const c of st.conditions) out.push(`${L[1]}${c.type} \t${c.status} `);
  }
  if (!spec.volumes?.length) out.push('Volumes:\t<none>');
  else {
    out.push('Volumes:');
    for (const v of spec.volumes) describeVolume(out, v);
  }
  out.push(`QoS Class:\t${st.qosClass ?? ''}`);
  multiline(out, 'Node-Selectors', spec.nodeSelector);
  describeTolerations(out, spec.tolerations ?? []);
  describeEvents(out, events, now);
  return tabwrite(out.join('\n'));
}
