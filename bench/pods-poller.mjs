// bench/pods-poller: the thread that watches GET /pods for pleg-latency.ts. It polls every 5 ms on a thread of its
// own, so a poll waits neither for the bench's socket.io clients nor for the main thread's garbage collector: in one
// thread, the worst kills' polls took 35–43 ms to come back, 15–23 ms of it the bench's own collector (a 160 KB body
// parsed every 5 ms beside the clients), and the next poll began up to 29 ms after the last one ended.
//
// Plain JavaScript: a worker thread does not get the main thread's tsx loader (the types are pleg-latency.ts's).
// Messages in: { url, name, timeoutMs }: until pod `name`'s first container shows terminated (or the time is up).
// Out: { at, containerId, gcMs }: `at` the epoch ms (performance.timeOrigin + now, sub-ms) the answer showing it was
// read, undefined when it never did; gcMs the poller's own GC pauses while it watched.
import { Agent, get } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { podItem } from './pod-item.mjs';

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

/** The body of GET /pods. @param {string} url @returns {Promise<Buffer>} */
function podList(url) {
  return new Promise((resolve, reject) => {
    get(url, { agent: keepAlive }, (r) => {
      /** @type {Buffer[]} */
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => resolve(Buffer.concat(chunks)));
      r.on('error', reject);
    }).on('error', reject);
  });
}

/** @param {{ url: string, name: string, timeoutMs: number }} req */
async function watch({ url, name, timeoutMs }) {
  const gc0 = gcMs;
  const end = performance.now() + timeoutMs;
  let containerId = '';
  while (performance.now() < end) {
    // Only the pod watched is parsed (pod-item.mjs): the whole list was 1.2–1.4 ms of CPU a poll beside the agent.
    const c = await podList(url).then((body) => podItem(body, name)?.status?.containerStatuses?.[0], () => undefined);
    containerId = c?.containerID?.replace(/^[a-z-]+:\/\//, '') ?? containerId;
    if (c?.state?.terminated) return { at: performance.timeOrigin + performance.now(), containerId, gcMs: gcMs - gc0 };
    await new Promise((r) => setTimeout(r, 5));
  }
  return { at: undefined, containerId, gcMs: gcMs - gc0 };
}

parentPort?.on('message', (req) => {
  void watch(req).then((a) => parentPort?.postMessage(a));
});
