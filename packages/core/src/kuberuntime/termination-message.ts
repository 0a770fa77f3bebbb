/**
 * Termination messages, as the kubelet's kuberuntime: before CreateContainer an empty file
 * `<root>/pods/<uid>/containers/<name>/<random id>` (mode 0666) is created on the host and bind-mounted at
 * the container's terminationMessagePath (makeMounts); once the container exited its content becomes
 * `state.terminated.message` (getPodContainerStatuses + getTerminationMessage), or with
 * FallbackToLogsOnError, a nonzero exit and an empty or missing file, the tail of its log
 * (readLastStringFromContainerLogs). The status manager then trims each message to the pod's share of
 * 12 KiB (normalizeStatus).
 */
import { randomUUID } from 'node:crypto';
import type { V1Container } from '@kubernetes/client-node';
import type { ContainerStatus__Output, Mount } from '../cri/types.ts';
import type { MessageSource } from '../container/types.ts';
import { CONTAINER_TERMINATION_MESSAGE_PATH_ANNOTATION, CONTAINER_TERMINATION_MESSAGE_POLICY_ANNOTATION } from '../container/labels.ts';

/** kubecontainer.MaxContainerTerminationMessageLength: the last 4 KiB of the file are read. */
export const MAX_CONTAINER_TERMINATION_MESSAGE_LENGTH = 1024 * 4;
/** kubecontainer.MaxContainerTerminationMessageLogLength: at most the last 2 KiB of the log tail. */
export const MAX_CONTAINER_TERMINATION_MESSAGE_LOG_LENGTH = 2048;
/** kubecontainer.MaxContainerTerminationMessageLogLines: the log tail is its last 80 lines. */
export const MAX_CONTAINER_TERMINATION_MESSAGE_LOG_LINES = 80;
/** kubecontainer.MaxPodTerminationMessageLogLength: every message of a pod together, split evenly. */
export const MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH = 1024 * 12;

/** The host side of termination messages (a recording fake in tests). */
export interface TerminationMessageFs {
  /** Creates the directory (parents included) and an empty file in it with mode 0666 whatever the umask. */
  createMessageFile(dir: string, file: string): Promise<void>;
  /** The last `max` bytes of the file; undefined when it does not exist; other failures throw. */
  readAtMost(path: string, max: number): Promise<Buffer | undefined>;
  /** The log's last `lines` lines (stdout and stderr, no timestamps), of which the last `bytes` bytes. */
  readLogTail(path: string, lines: number, bytes: number): Promise<string>;
  /** Removes a file made ahead for a start that never reached CreateContainer (fakes without files need none). */
  removeMessageFile?(path: string): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * `<root>/pods/<uid>/containers/<name>`: the kubelet's getPodContainerDir; undefined when the uid or the name
 * is not one plain path segment (it could lead out of the pod's directory).
 */
export function podContainerDir(rootDir: string, uid: string, name: string): string | undefined {
  if (![uid, name].every((s) => SEGMENT.test(s) && !s.includes('..'))) return undefined;
  return `${rootDir.replace(/\/+$/, '')}/pods/${uid}/containers/${name}`;
}

/**
 * The CRI mount of the termination message file, or undefined when the container has no path (or the file
 * could not be created: the kubelet then starts the container without it and logs the error).
 */
export async function terminationMessageMount(
  fs: TerminationMessageFs,
  dir: string,
  c: Pick<V1Container, 'terminationMessagePath'>,
  onError: (message: string) => void,
  id: () => string = randomUUID,
): Promise<Mount | undefined> {
  if (!c.terminationMessagePath) return undefined;
  const file = id();
  const hostPath = `${dir}/${file}`;
  try {
    await fs.createMessageFile(dir, file);
  } catch (err) {
    onError(`error on creating termination-log file "${hostPath}": ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  return { hostPath, containerPath: c.terminationMessagePath, readonly: false };
}

/** Where an exited container's termination message comes from (ContainerStatus.messageSource). */
export function messageSourceOf(s: Pick<ContainerStatus__Output, 'annotations' | 'mounts'>): MessageSource {
  const path = s.annotations[CONTAINER_TERMINATION_MESSAGE_PATH_ANNOTATION] ?? '';
  const hostPath = path ? s.mounts.find((m) => m.containerPath === path)?.hostPath : undefined;
  const fallbackToLogsOnError = s.annotations[CONTAINER_TERMINATION_MESSAGE_POLICY_ANNOTATION] === 'FallbackToLogsOnError';
  return hostPath ? { hostPath, fallbackToLogsOnError } : { fallbackToLogsOnError };
}

/** With FallbackToLogsOnError, a nonzero exit and not ContainerCannotRun, an empty or missing file means the log's tail. */
export function fallsBackToLogs(src: MessageSource, exit: { exitCode: number; reason: string }): boolean {
  return src.fallbackToLogsOnError && exit.exitCode !== 0 && exit.reason !== 'ContainerCannotRun';
}

/**
 * The message of an exited container: its file (the mount at the annotated path), else — FallbackToLogsOnError,
 * exit code ≠ 0 and not ContainerCannotRun — the tail of its log. '' when there is none.
 */
export async function readTerminationMessage(fs: TerminationMessageFs, s: ContainerStatus__Output): Promise<string> {
  const src = messageSourceOf(s);
  const [message, checkLogs] = await readMessageFile(fs, src.hostPath, fallsBackToLogs(src, s));
  if (!checkLogs) return message;
  try {
    return await fs.readLogTail(s.logPath, MAX_CONTAINER_TERMINATION_MESSAGE_LOG_LINES, MAX_CONTAINER_TERMINATION_MESSAGE_LOG_LENGTH);
  } catch (err) {
    return `Error on reading termination message from logs: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** getTerminationMessage: [message, whether to read the log instead]. */
export async function readMessageFile(fs: TerminationMessageFs, hostPath: string | undefined, fallbackToLogs: boolean): Promise<[string, boolean]> {
  if (!hostPath) return ['', fallbackToLogs];
  try {
    const data = await fs.readAtMost(hostPath, MAX_CONTAINER_TERMINATION_MESSAGE_LENGTH);
    if (data === undefined) return ['', fallbackToLogs];
    return [data.toString('utf8'), fallbackToLogs && data.length === 0];
  } catch (err) {
    return [`Error on reading termination log ${hostPath}: ${err instanceof Error ? err.message : String(err)}`, false];
  }
}

/** The runtime's own message, enriched with the termination message (`<runtime message>: <message>`). */
export function withTerminationMessage(runtimeMessage: string, message: string): string {
  if (!message) return runtimeMessage;
  return runtimeMessage ? `${runtimeMessage}: ${message}` : message;
}

/** normalizeStatus: each terminated message keeps its first 12 KiB / (containers + init containers) bytes. */
export function bytesPerTerminationMessage(containers: number): number {
  return containers > 0 ? Math.floor(MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH / containers) : MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH;
}

/** The first `max` bytes of `message` (Go slices bytes; a split UTF-8 sequence is dropped, not mangled). */
export function truncateMessage(message: string, max: number): string {
  const b = Buffer.from(message, 'utf8');
  if (b.length <= max) return message;
  return new TextDecoder('utf-8', { fatal: false }).decode(b.subarray(0, max)).replace(/\uFFFD$/, '');
}

/** normalizeStatus on every state and lastState of the pod's container statuses (in place). */
export function trimTerminationMessages(statuses: Array<{ state?: { terminated?: { message?: string } }; lastState?: { terminated?: { message?: string } } }>, containers: number): void {
  const max = bytesPerTerminationMessage(containers);
  for (const s of statuses) {
    for (const t of [s.state?.terminated, s.lastState?.terminated]) if (t?.message) t.message = truncateMessage(t.message, max);
  }
}
