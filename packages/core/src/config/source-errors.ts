/**
 * Where a pod source's errors go beyond the source's own log line: a Warning event (reason FailedValidation)
 * on the pod it concerns (a duplicate, as the kubelet records it) or else on the node, so a refused manifest
 * shows in `kubectl describe node`, in the agent's event bus and in the console. The message names the file or
 * URL and is cut at 1 kB (the API's limit for an event note).
 */
import type { EventRecorder } from '../events/recorder.ts';
import type { SourceError } from './types.ts';

const MAX_EVENT_MESSAGE = 1024;

export function sourceErrorEvents(recorder: EventRecorder | undefined, nodeName: string): (e: SourceError) => void {
  return (e) => {
    const ref = e.pod ? { kind: 'Pod', namespace: e.pod.namespace, name: e.pod.name } : { kind: 'Node', name: nodeName, uid: nodeName };
    const message = `Error validating pod from ${e.source} source ${e.file}: ${e.message}`;
    recorder?.event(ref, 'Warning', 'FailedValidation', message.length > MAX_EVENT_MESSAGE ? `${message.slice(0, MAX_EVENT_MESSAGE - 3)}...` : message);
  };
}
