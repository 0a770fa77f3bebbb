/** GET /pods and GET /runningpods/: v1 PodLists. */
import type { ServerResponse } from 'node:http';
import type { V1Pod } from '@kubernetes/client-node';
import { sendJson } from '../http-util.ts';

export function podList(items: V1Pod[]): { kind: 'PodList'; apiVersion: 'v1'; metadata: Record<string, never>; items: V1Pod[] } {
  return { kind: 'PodList', apiVersion: 'v1', metadata: {}, items };
}

export function sendPodList(res: ServerResponse, items: V1Pod[]): void {
  sendJson(res, 200, podList(items));
}
