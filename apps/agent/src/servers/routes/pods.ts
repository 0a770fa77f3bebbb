/** GET /pods and GET /runningpods/: v1 PodLists. */
import type { ServerResponse } from 'node:http';
import type { V1Pod } from '@kubernetes/client-node';
import { sendJson } from '../http-util.ts';
import { PodListBody } from './pod-list-body.ts';

export function podList(items: V1Pod[]): { kind: 'PodList'; apiVersion: 'v1'; metadata: Record<string, never>; items: V1Pod[] } {
  return { kind: 'PodList', apiVersion: 'v1', metadata: {}, items };
}

export function sendPodList(res: ServerResponse, items: V1Pod[]): void {
  sendJson(res, 200, podList(items));
}

/** One per agent process: both ports' GET /pods serve the pod manager's pods (entries are per pod object). */
const managedPods = new PodListBody();

/** GET /pods: the pod manager's pods, each serialised again only when it or its status changed (pod-list-body.ts). */
export function sendManagedPods(res: ServerResponse, items: V1Pod[]): void {
  const body = managedPods.body(items);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.byteLength });
  res.end(body);
}
