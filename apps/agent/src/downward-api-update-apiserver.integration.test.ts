/**
 * Downward API files follow the pod's labels and annotations in API-server mode (the API server TEST DOUBLE, one
 * real agent, on the embedded runtime and on a private containerd). Our own test of what upstream checks in
 * test/e2e/common/storage/downwardapi_volume.go and projected_downwardapi.go at v1.28: "[sig-storage] Downward API
 * volume should update labels on modification", "... should update annotations on modification" and the two
 * "Projected downwardAPI" twins — a running pod's labels/annotations are changed through the API server, and the
 * file in its downwardAPI / projected volume shows the new value (upstream allows about 2 minutes).
 * The path: watch MODIFIED → API pod source → PodConfig UPDATE (labels/annotations are a real change) → the pod
 * worker syncs the updated pod at once → the volume manager's mountPod rewrites the payload atomically (a new
 * timestamped dir, `..data` swapped). Besides, every pod is re-synced each syncFrequency (1 min, as the kubelet).
 * Run: node --import tsx --test apps/agent/src/downward-api-update-apiserver.integration.test.ts
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, Exec, KubeConfig, type V1Pod, type V1Status } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { HOST_IMAGE, LOOP, startApiNode, testCgroupRoot } from './testing/api-node.ts';
import { removeCgroupTree } from './testing/cgroups.ts';
import type { NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';
import { setUpRuntime, tempPrivateContainerd, type RuntimeSetup } from './testing/private-containerd.ts';

const items = [
  { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
  { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } },
];

function suite(runtime: string, node: string, image: string, setup: RuntimeSetup): void {
  let api: ApiServerDouble;
  let agent: NodeAgent | undefined;
  let kc: KubeConfig;
  let down: (() => Promise<void>) | undefined;
  let skip: string | false = false;

  /** `cat <file>` inside the container, through the API server's pods/exec (as kubectl exec). */
  async function cat(file: string): Promise<string> {
    const chunks: Buffer[] = [];
    const out = new Writable({ write: (c: Buffer, _e, cb) => (chunks.push(Buffer.from(c)), cb()) });
    const status = await new Promise<V1Status>((resolve, reject) => {
      new Exec(kc).exec('default', 'dapi', 'c', ['cat', file], out, null, null, false, resolve).catch(reject);
    });
    assert.equal(status.status, 'Success', `cat ${file}: ${JSON.stringify(status)}`);
    return Buffer.concat(chunks).toString();
  }

  /** Polls the file inside the container until it holds `want`; returns how long that took. */
  async function until(file: string, want: string, timeoutMs = 60_000): Promise<number> {
    const start = Date.now();
    await eventually(async () => ((await cat(file).catch(() => '')).includes(want) ? true : undefined), timeoutMs, `${file} containing ${want}`);
    return Date.now() - start;
  }

  /** A JSON patch of the pod through the API server (client-node's default patch type). */
  async function patchPod(ops: object[]): Promise<void> {
    await kc.makeApiClient(CoreV1Api).patchNamespacedPod({ name: 'dapi', namespace: 'default', body: ops });
  }

  describe(`downward API volumes follow label and annotation updates through the API server on ${runtime}`, { timeout: 300_000 }, () => {
    before(async () => {
      const r = await setUpRuntime(setup);
      if ('skip' in r) return void (skip = r.skip);
      down = r.down;
      ({ api, agent } = await startApiNode(node, { staticPod: false, trustApiServerCa: true, ...(r.endpoint ? { endpoint: r.endpoint } : {}) }));
      kc = new KubeConfig();
      kc.loadFromFile(api.adminKubeconfig());
      api.store.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'dapi', namespace: 'default', labels: { key1: 'value1', key2: 'value2' }, annotations: { builder: 'bar' } },
        spec: {
          nodeName: node,
          terminationGracePeriodSeconds: 1,
          containers: [{
            name: 'c', image, imagePullPolicy: 'Never', command: ['sh', '-c', LOOP],
            volumeMounts: [{ name: 'podinfo', mountPath: '/etc/podinfo' }, { name: 'projected', mountPath: '/etc/projected' }],
          }],
          volumes: [
            { name: 'podinfo', downwardAPI: { items } },
            { name: 'projected', projected: { sources: [{ downwardAPI: { items } }] } },
          ],
        },
      });
      await eventually(async () => {
        const p = api.store.get('pods', 'default', 'dapi') as V1Pod | undefined;
        return p?.status?.containerStatuses?.[0]?.state?.running ? true : undefined;
      }, 120_000, 'pod dapi running');
    });

    after(async () => {
      try {
        // The pod goes first: its volumes are tmpfs mounts under the agent's root, unmounted by the kubelet's teardown.
        if (api?.store.get('pods', 'default', 'dapi')) {
          api.store.delete('pods', 'default', 'dapi', { gracePeriodSeconds: 1 });
          await eventually(async () => (api.store.get('pods', 'default', 'dapi') ? undefined : true), 60_000, 'pod dapi deleted by the kubelet');
        }
        // The API object can go before the volume housekeeping unmounted the pod's tmpfs volumes (the kubelet waits
        // for them: SyncTerminatedPod waits for the unmount before TerminatePod): wait for them before stopping the agent.
        const root = agent?.root;
        const mounted = () => readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((l) => l.split(' ')[4]?.startsWith(`${root}/`));
        if (root) await eventually(async () => (mounted() ? undefined : true), 30_000, "the pod's volumes unmounted");
      } finally {
        await agent?.cleanup();
        await api?.stop();
        await down?.();
        if (down && process.getuid?.() === 0) removeCgroupTree(testCgroupRoot(node)); // containerd's pod cgroups are gone by now
      }
    });

    it('the files show the pod metadata as created', async (t) => {
      if (skip) return t.skip(skip);
      for (const dir of ['/etc/podinfo', '/etc/projected']) {
        assert.equal(await cat(`${dir}/labels`), 'key1="value1"\nkey2="value2"');
        // The kubelet's own annotations (kubernetes.io/config.seen, config.source) are in the file too, as upstream.
        assert.match(await cat(`${dir}/annotations`), /^builder="bar"$/m);
      }
    });

    it('a label added through the API server appears in the downwardAPI and the projected file', async (t) => {
      if (skip) return t.skip(skip);
      await patchPod([{ op: 'add', path: '/metadata/labels/key3', value: 'value3' }]);
      const took = await until('/etc/podinfo/labels', 'key3="value3"');
      await until('/etc/projected/labels', 'key3="value3"', 10_000);
      assert.equal(await cat('/etc/podinfo/labels'), 'key1="value1"\nkey2="value2"\nkey3="value3"');
      t.diagnostic(`label update seen in the container after ${took} ms`);
      assert.ok(took < 30_000, `the pod update rewrites the volumes at once, not at the 1 min resync (${took} ms)`);
    });

    it('an annotation changed through the API server appears in both files', async (t) => {
      if (skip) return t.skip(skip);
      await patchPod([{ op: 'replace', path: '/metadata/annotations/builder', value: 'foo' }]);
      await until('/etc/podinfo/annotations', 'builder="foo"');
      await until('/etc/projected/annotations', 'builder="foo"', 10_000);
      assert.doesNotMatch(await cat('/etc/projected/annotations'), /builder="bar"/);
    });
  });
}

suite('the embedded runtime', 'node-dapi', HOST_IMAGE, async () => ({ down: async () => {} }));
suite('containerd', 'node-dapi-ctd', 'localhost/busybox:latest', () => tempPrivateContainerd('nodelet-dapi-ctd-'));
