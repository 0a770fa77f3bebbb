/**
 * Volume validation with the API server's messages (pkg/apis/core/validation: ValidateVolumes,
 * validateVolumeSource, ValidateVolumeMounts, ValidateVolumeDevices): volume names are unique DNS-1123 labels
 * (they name directories on the node), exactly one volume source, hostPath paths without '..', configMap /
 * secret / downwardAPI / projected item paths relative without '..', mounts naming an existing volume with a
 * unique mountPath and a relative subPath / subPathExpr without '..'. Field paths are the API server's,
 * including its quirks (subPath errors at `volumeMounts.subPath`, downwardAPI item errors at
 * `downwardAPI.path`, projected token paths at `projected.path`).
 */
import type { V1Container, V1DownwardAPIVolumeFile, V1KeyToPath, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { tryParseQuantity } from '../util/quantity.ts';
import { validateFieldSelector, validateResourceFieldSelector, VOLUME_FIELD_PATHS } from './env-validation.ts';
import { quote, validateDnsLabel } from './meta-validation.ts';

const q = quote;
const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';

/** Volume source fields in the API server's order, with the field name its "more than 1" error prints. */
const SOURCES: ReadonlyArray<readonly [key: string, forbiddenName: string]> = [
  ['emptyDir', 'emptyDir'], ['hostPath', 'hostPath'], ['gitRepo', 'gitRepo'], ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'], ['secret', 'secret'], ['nfs', 'nfs'], ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'], ['flocker', 'flocker'], ['persistentVolumeClaim', 'persistentVolumeClaim'], ['rbd', 'rbd'],
  ['cinder', 'cinder'], ['cephfs', 'cephFS'], ['quobyte', 'quobyte'], ['downwardAPI', 'downwarAPI'], ['fc', 'fc'],
  ['flexVolume', 'flexVolume'], ['configMap', 'configMap'], ['azureFile', 'azureFile'], ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'], ['portworxVolume', 'portworxVolume'], ['azureDisk', 'azureDisk'],
  ['storageos', 'storageos'], ['projected', 'projected'], ['scaleIO', 'scaleIO'], ['csi', 'csi'], ['ephemeral', 'ephemeral'],
  ['image', 'image'],
];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_RO = ['Disabled', 'Enabled', 'IfPossible'];

const supported = (vals: string[]) => vals.map((v) => JSON.stringify(v)).join(', ');

/** validatePathNoBacksteps: no ".." element. */
function noBacksteps(p: string, path: string): string[] {
  return p.replace(/\\/g, '/').split('/').includes('..') ? [`${path}: Invalid value: ${q(p)}: must not contain '..'`] : [];
}

/** validateLocalDescendingPath: relative, no ".." element. */
export function localDescending(p: string, path: string): string[] {
  const errs = p.startsWith('/') ? [`${path}: Invalid value: ${q(p)}: must be a relative path`] : [];
  return [...errs, ...noBacksteps(p, path)];
}

/** ValidateLocalNonReservedPath: also not starting with ".." (the atomic writer's own names). */
function localNonReserved(p: string, path: string): string[] {
  const errs = localDescending(p, path);
  if (p.startsWith('..') && !p.startsWith('../')) errs.push(`${path}: Invalid value: ${q(p)}: must not start with '..'`);
  return errs;
}

function fileMode(mode: number | undefined, path: string): string[] {
  return mode !== undefined && (mode > 0o777 || mode < 0) ? [`${path}: Invalid value: ${mode}: ${FILE_MODE_MSG}`] : [];
}

function keyToPath(kp: V1KeyToPath, path: string): string[] {
  const errs: string[] = [];
  if (!kp.key) errs.push(`${path}.key: Required value`);
  if (!kp.path) errs.push(`${path}.path: Required value`);
  errs.push(...localNonReserved(kp.path ?? '', `${path}.path`), ...fileMode(kp.mode, `${path}.mode`));
  return errs;
}

/** validateDownwardAPIVolumeFile (`path` is the source's path: the API server does not index items). */
function downwardFile(f: V1DownwardAPIVolumeFile, path: string): string[] {
  const errs: string[] = [];
  if (!f.path) errs.push(`${path}.path: Required value`);
  errs.push(...localNonReserved(f.path ?? '', `${path}.path`));
  if (f.fieldRef) {
    errs.push(...validateFieldSelector(f.fieldRef, VOLUME_FIELD_PATHS, `${path}.fieldRef`));
    if (f.resourceFieldRef) errs.push(`${path}: Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously`);
  } else if (f.resourceFieldRef) errs.push(...validateResourceFieldSelector(f.resourceFieldRef, `${path}.resourceFieldRef`, true));
  else errs.push(`${path}: Required value: one of fieldRef and resourceFieldRef is required`);
  errs.push(...fileMode(f.mode, `${path}.mode`));
  return errs;
}

function projected(v: NonNullable<V1Volume['projected']>, path: string): string[] {
  const errs = fileMode(v.defaultMode, `${path}.defaultMode`);
  const seen = new Set<string>();
  const addPath = (p: string | undefined, value: string | undefined) => {
    if (!p) return;
    if (seen.has(p)) errs.push(`${path}: Invalid value: ${q(value ?? '')}: conflicting duplicate paths`);
    seen.add(p);
  };
  for (const [i, src] of (v.sources ?? []).entries()) {
    const sp = `${path}.sources[${i}]`;
    let n = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const s = src[kind];
      if (!s) continue;
      n++;
      if (!s.name) errs.push(`${sp}.${kind}.name: Required value`);
      for (const [j, kp] of (s.items ?? []).entries()) {
        errs.push(...keyToPath(kp, `${sp}.${kind}.items[${j}]`));
        addPath(kp.path, s.name);
      }
    }
    if (src.downwardAPI) {
      n++;
      for (const f of src.downwardAPI.items ?? []) {
        errs.push(...downwardFile(f, `${sp}.downwardAPI`));
        addPath(f.path, f.path);
      }
    }
    const t = src.serviceAccountToken;
    if (t) {
      n++;
      const exp = t.expirationSeconds;
      if (exp !== undefined && exp < 600) errs.push(`${sp}.serviceAccountToken.expirationSeconds: Invalid value: ${exp}: may not specify a duration less than 10 minutes`);
      if (exp !== undefined && exp > 2 ** 32) errs.push(`${sp}.serviceAccountToken.expirationSeconds: Invalid value: ${exp}: may not specify a duration larger than 2^32 seconds`);
      if (!t.path) errs.push(`${path}.path: Required value`);
      else errs.push(...localNonReserved(t.path, `${path}.path`));
    }
    const ctb = src.clusterTrustBundle;
    if (ctb) {
      n++;
      if (!ctb.path) errs.push(`${sp}.clusterTrustBundle.path: Required value`);
      errs.push(...localNonReserved(ctb.path ?? '', `${sp}.clusterTrustBundle.path`));
      addPath(ctb.path, ctb.path);
    }
    if (n > 1) errs.push(`${sp}: Forbidden: may not specify more than 1 volume type per source`);
  }
  return errs;
}

/** validateVolumeSource for the sources the kubelet sets up; the others only count towards "exactly one". */
function volumeSource(v: V1Volume, path: string): string[] {
  const errs: string[] = [];
  const src = v as unknown as Record<string, unknown>;
  let n = 0;
  for (const [key, name] of SOURCES) {
    if (src[key] === undefined || src[key] === null) continue;
    if (n++ > 0) {
      errs.push(`${path}.${name}: Forbidden: may not specify more than 1 volume type`);
      continue;
    }
    if (key === 'emptyDir' && v.emptyDir?.sizeLimit !== undefined) {
      const r = tryParseQuantity(String(v.emptyDir.sizeLimit));
      if (!r.ok) errs.push(`${path}.emptyDir.sizeLimit: Invalid value: ${q(v.emptyDir.sizeLimit)}: ${r.reason}`);
      else if (r.value < 0) errs.push(`${path}.emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity`);
    } else if (key === 'hostPath' && v.hostPath) {
      const hp = v.hostPath;
      if (!hp.path) errs.push(`${path}.hostPath.path: Required value`);
      else {
        errs.push(...noBacksteps(hp.path, `${path}.hostPath.path`));
        if (hp.type !== undefined && !HOST_PATH_TYPES.includes(hp.type)) {
          errs.push(`${path}.hostPath.type: Unsupported value: ${q(hp.type)}: supported values: ${supported(HOST_PATH_TYPES)}`);
        }
      }
    } else if ((key === 'secret' && v.secret) || (key === 'configMap' && v.configMap)) {
      const s = (v.secret ?? v.configMap)!;
      const nameField = key === 'secret' ? 'secretName' : 'name';
      if (!(s as Record<string, unknown>)[nameField]) errs.push(`${path}.${key}.${nameField}: Required value`);
      errs.push(...fileMode(s.defaultMode, `${path}.${key}.defaultMode`));
      for (const [i, kp] of (s.items ?? []).entries()) errs.push(...keyToPath(kp, `${path}.${key}.items[${i}]`));
    } else if (key === 'downwardAPI' && v.downwardAPI) {
      errs.push(...fileMode(v.downwardAPI.defaultMode, `${path}.downwardAPI.defaultMode`));
      for (const f of v.downwardAPI.items ?? []) errs.push(...downwardFile(f, `${path}.downwardAPI`));
    } else if (key === 'projected' && v.projected) {
      errs.push(...projected(v.projected, `${path}.projected`));
    } else if (key === 'persistentVolumeClaim' && !v.persistentVolumeClaim?.claimName) {
      errs.push(`${path}.persistentVolumeClaim.claimName: Required value`);
    }
  }
  if (n === 0) errs.push(`${path}: Required value: must specify a volume type`);
  return errs;
}

/** ValidateVolumes: the errors, and the volumes without errors by name (what mounts may refer to). */
export function validateVolumes(volumes: V1Volume[] | undefined, path = 'spec.volumes'): { errors: string[]; valid: Map<string, V1Volume> } {
  const errors: string[] = [];
  const valid = new Map<string, V1Volume>();
  for (const [i, v] of (volumes ?? []).entries()) {
    const p = `${path}[${i}]`;
    const el = volumeSource(v, p);
    if (!v.name) el.push(`${p}.name: Required value`);
    else el.push(...validateDnsLabel(`${p}.name`, v.name));
    if (valid.has(v.name)) el.push(`${p}.name: Duplicate value: ${q(v.name)}`);
    if (el.length === 0) valid.set(v.name, v);
    else errors.push(...el);
  }
  return { errors, valid };
}

function mountPropagation(m: V1VolumeMount, c: V1Container, path: string): string[] {
  const mp = m.mountPropagation;
  if (mp === undefined) return [];
  const errs = PROPAGATIONS.includes(mp) ? [] : [`${path}: Unsupported value: ${q(mp)}: supported values: ${supported(PROPAGATIONS)}`];
  if (mp === 'Bidirectional' && !c.securityContext?.privileged) errs.push(`${path}: Forbidden: Bidirectional mount propagation is available only to privileged containers`);
  return errs;
}

function recursiveReadOnly(m: V1VolumeMount, path: string): string[] {
  const rro = m.recursiveReadOnly;
  if (rro === undefined || rro === 'Disabled') return [];
  if (!RECURSIVE_RO.includes(rro)) return [`${path}: Unsupported value: ${q(rro)}: supported values: ${supported(RECURSIVE_RO)}`];
  const errs = m.readOnly ? [] : [`${path}: Forbidden: may only be specified when readOnly is true`];
  if (m.mountPropagation !== undefined && m.mountPropagation !== 'None') errs.push(`${path}: Forbidden: may only be specified when mountPropagation is None or not specified`);
  return errs;
}

/** ValidateVolumeMounts of one container (`path`: e.g. spec.containers[0].volumeMounts). */
export function validateVolumeMounts(c: V1Container, volumes: ReadonlyMap<string, V1Volume>, path: string): string[] {
  const errs: string[] = [];
  const mountPoints = new Set<string>();
  const devices = new Map((c.volumeDevices ?? []).map((d) => [d.name, d.devicePath]));
  const devicePaths = new Set(devices.values());
  for (const [i, m] of (c.volumeMounts ?? []).entries()) {
    const p = `${path}[${i}]`;
    if (!m.name) errs.push(`${p}.name: Required value`);
    if (!volumes.has(m.name)) errs.push(`${p}.name: Not found: ${q(m.name ?? '')}`);
    if (!m.mountPath) errs.push(`${p}.mountPath: Required value`);
    if (mountPoints.has(m.mountPath)) errs.push(`${p}.mountPath: Invalid value: ${q(m.mountPath)}: must be unique`);
    mountPoints.add(m.mountPath);
    if (devices.has(m.name)) errs.push(`${p}.name: Invalid value: ${q(m.name)}: must not already exist in volumeDevices`);
    if (devicePaths.has(m.mountPath)) errs.push(`${p}.mountPath: Invalid value: ${q(m.mountPath)}: must not already exist as a path in volumeDevices`);
    if (volumes.get(m.name)?.image) {
      if (m.subPath) errs.push(`${p}.subPath: Invalid value: ${q(m.subPath)}: not allowed in image volume sources`);
      if (m.subPathExpr) errs.push(`${p}.subPathExpr: Invalid value: ${q(m.subPathExpr)}: not allowed in image volume sources`);
    }
    if (m.subPath) errs.push(...localDescending(m.subPath, `${path}.subPath`));
    if (m.subPathExpr) {
      if (m.subPath) errs.push(`${p}.subPathExpr: Invalid value: ${q(m.subPathExpr)}: subPathExpr and subPath are mutually exclusive`);
      errs.push(...localDescending(m.subPathExpr, `${path}.subPathExpr`));
    }
    errs.push(...mountPropagation(m, c, `${path}.mountPropagation`), ...recursiveReadOnly(m, `${path}.recursiveReadOnly`));
  }
  return errs;
}

/** ValidateVolumeDevices of one container: block devices come from PersistentVolumeClaim / Ephemeral volumes only. */
export function validateVolumeDevices(c: V1Container, volumes: ReadonlyMap<string, V1Volume>, path: string): string[] {
  const errs: string[] = [];
  const names = new Set<string>();
  const paths = new Set<string>();
  const mounts = new Map((c.volumeMounts ?? []).map((m) => [m.name, m.mountPath]));
  const mountPaths = new Set(mounts.values());
  for (const [i, d] of (c.volumeDevices ?? []).entries()) {
    const p = `${path}[${i}]`;
    const v = volumes.get(d.name);
    if (!d.name) errs.push(`${p}.name: Required value`);
    if (names.has(d.name)) errs.push(`${p}.name: Invalid value: ${q(d.name)}: must be unique`);
    if (v && !v.persistentVolumeClaim && !v.ephemeral) {
      errs.push(`${p}.name: Invalid value: ${q(d.name)}: can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode`);
    }
    if (!v) errs.push(`${p}.name: Not found: ${q(d.name ?? '')}`);
    if (!d.devicePath) errs.push(`${p}.devicePath: Required value`);
    if (paths.has(d.devicePath)) errs.push(`${p}.devicePath: Invalid value: ${q(d.devicePath)}: must be unique`);
    if (d.devicePath && noBacksteps(d.devicePath, '').length > 0) {
      errs.push(`${p}.devicePath: Invalid value: ${q(d.devicePath)}: can not contain backsteps ('..')`);
    } else paths.add(d.devicePath);
    if (mounts.has(d.name)) errs.push(`${p}.name: Invalid value: ${q(d.name)}: must not already exist in volumeMounts`);
    if (mountPaths.has(d.devicePath)) errs.push(`${p}.devicePath: Invalid value: ${q(d.devicePath)}: must not already exist as a path in volumeMounts`);
    if (d.name) names.add(d.name);
  }
  return errs;
}
