/**
 * Ephemeral containers through the API server TEST DOUBLE with a real agent, on containerd (root) and on the
 * embedded runtime. Our own test of the behaviours the upstream v1.28 specs check
 * (test/e2e/common/node/ephemeral_containers.go):
 * - "[sig-node] Ephemeral Containers [NodeConformance] will start an ephemeral container in an existing pod
 *   [Conformance]": the ephemeralcontainers subresource adds one (generation 1 → 2), it runs, exec in it answers,
 *   its log reads through pods/log;
 * - "[sig-node] Ephemeral Containers [NodeConformance] should update the ephemeral containers in an existing pod
 *   [Conformance]": GET of the subresource shows one, a PUT adds a second, GET shows two.
 * Beyond the specs (kuberuntime_manager.go): targetContainerName puts it in the target's PID namespace, an
 * exited one is not restarted and the pod stays Running and Ready, `kubectl debug --target` works (when kubectl is
 * installed), and deleting the pod stops every container so the pod object goes.
 * Run: node --import tsx --test apps/agent/src/ephemeral-containers-apiserver.integration.test.ts
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Attach, CoreV1Api, Exec, KubeConfig, PatchStrategy, setHeaderOptions, type V1ContainerStatus, type V1Pod, type V1Status } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { HOST_IMAGE, startApiNode } from './testing/api-node.ts';
import type { NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';
import { tempPrivateContainerd } from './testing/private-containerd.ts';

const hasKubectl = spawnSync('sh', ['-c', 'command -v kubectl']).status === 0;

const POD = 'ephemeral-containers-target-pod';
const NS = 'default';

function suite(runtime: string, node: string, image: string, setup: () => Promise<{ endpoint?: string; down(): Promise<void> } | string>): void {
  let api: ApiServerDouble;
  let agent: NodeAgent;
  let down: (() => Promise<void>) | undefined;
  let skip: string | false = false;
  let kc: KubeConfig;
  let core: CoreV1Api;
  const getPod = () => api.store.get('pods', NS, POD) as V1Pod | undefined;
  const ecStatus = (name: string): V1ContainerStatus | undefined => getPod()?.status?.ephemeralContainerStatuses?.find((s) => s.name === name);
  const running = (name: string) => eventually(async () => (ecStatus(name)?.state?.running ? ecStatus(name) : undefined), 90_000, `${name} running`);
  const logOf = (container: string, want: RegExp) =>
    eventually(async () => {
      const text = await core.readNamespacedPodLog({ name: POD, namespace: NS, container }).catch(() => '');
      return want.test(text) ? text : undefined;
    }, 60_000, `log of ${container} matching ${want}`);
  const startedEvents = (container: string) =>
    api.store.list('events').filter((e) => {
      const ev = e as { reason?: string; involvedObject?: { name?: string; fieldPath?: string } };
      return ev.reason === 'Started' && ev.involvedObject?.name === POD && ev.involvedObject.fieldPath === `spec.ephemeralContainers{${container}}`;
    }).length;

  describe(`ephemeral containers on ${runtime}`, { timeout: 400_000 }, () => {
    before(async () => {
      const r = await setup();
      if (typeof r === 'string') {
        if (process.env.CI === 'true') throw new Error(r);
        skip = r;
        return;
      }
      down = r.down;
      ({ api, agent } = await startApiNode(node, { staticPod: false, trustApiServerCa: true, ...(r.endpoint ? { endpoint: r.endpoint } : {}) }));
      kc = new KubeConfig();
      kc.loadFromFile(api.adminKubeconfig());
      core = kc.makeApiClient(CoreV1Api);
      api.store.create({
        apiVersion: 'v1', kind: 'Pod', metadata: { name: POD, namespace: NS },
        spec: { nodeName: node, terminationGracePeriodSeconds: 2, containers: [{ name: 'test-container-1', image, imagePullPolicy: 'Never', command: ['/bin/sleep'], args: ['10000'] }] },
      });
      await eventually(async () => (getPod()?.status?.containerStatuses?.[0]?.state?.running ? true : undefined), 120_000, 'target pod running');
    });

    after(async () => {
      await agent?.cleanup();
      await api?.stop();
      await down?.();
    });

    it('will start an ephemeral container in an existing pod: runs, exec answers, its log reads, attach sees its tty', async (t) => {
      if (skip) return t.skip(skip);
      assert.equal(getPod()?.metadata?.generation, 1);
      const debuggerEc = { name: 'debugger', image, imagePullPolicy: 'Never', command: ['/bin/sh', '-c', 'while true; do echo polo; sleep 2; done'], stdin: true, tty: true };
      await core.patchNamespacedPodEphemeralcontainers({ name: POD, namespace: NS, body: { spec: { ephemeralContainers: [debuggerEc] } } }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch));
      const st = await running('debugger');
      assert.equal(getPod()?.metadata?.generation, 2);
      assert.deepEqual([st.ready, st.restartCount, st.image], [false, 0, image]);
      assert.match(st.containerID ?? '', /^[\w-]+:\/\/[0-9a-f]+$/);
      const out: Buffer[] = [];
      const sink = new Writable({ write: (c: Buffer, _e, cb) => (out.push(Buffer.from(c)), cb()) });
      const status = await new Promise<V1Status>((resolve, reject) => {
        new Exec(kc).exec(NS, POD, 'debugger', ['/bin/echo', 'marco'], sink, null, null, false, resolve).catch(reject);
      });
      assert.equal(status.status, 'Success');
      assert.match(Buffer.concat(out).toString(), /marco/);
      await logOf('debugger', /polo/);
      assert.equal(getPod()?.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
      // kubectl debug -it attaches: the tty's output reaches the attached client. Not on containerd 1.6: attach
      // over WebSocket without stdin delivers nothing there for ANY container created with stdin (an app
      // container too; one without stdin streams), so it says nothing about ephemeral containers.
      if (runtime === 'containerd') return;
      const seen: Buffer[] = [];
      const tty = new Writable({ write: (c: Buffer, _e, cb) => (seen.push(Buffer.from(c)), cb()) });
      const ws = await new Attach(kc).attach(NS, POD, 'debugger', tty, null, null, true);
      await eventually(async () => (/polo/.test(Buffer.concat(seen).toString()) ? true : undefined), 20_000, 'polo through attach');
      ws.close();
    });

    it('should update the ephemeral containers: GET shows one, PUT adds a second in the target\'s PID namespace', async (t) => {
      if (skip) return t.skip(skip);
      const one = await core.readNamespacedPodEphemeralcontainers({ name: POD, namespace: NS });
      assert.equal(one.spec?.ephemeralContainers?.length, 1);
      const script = 'echo "pid1=$(tr "\\0" " " < /proc/1/cmdline)"; sleep 2; exit 3';
      const body = { ...one, spec: { ...one.spec!, ephemeralContainers: [...one.spec!.ephemeralContainers!, { name: 'debugger2', image, imagePullPolicy: 'Never', terminationMessagePolicy: 'File', targetContainerName: 'test-container-1', command: ['/bin/sh', '-c', script] }] } };
      await core.replaceNamespacedPodEphemeralcontainers({ name: POD, namespace: NS, body });
      const two = await core.readNamespacedPodEphemeralcontainers({ name: POD, namespace: NS });
      assert.deepEqual(two.spec?.ephemeralContainers?.map((e) => e.name), ['debugger', 'debugger2']);
      await logOf('debugger2', /pid1=\/bin\/sleep 10000 /);
      const exited = await eventually(async () => ecStatus('debugger2')?.state?.terminated, 120_000, 'debugger2 exited');
      assert.equal(exited.exitCode, 3);
      assert.equal(getPod()?.status?.phase, 'Running');
    });

    it('kubectl debug --target (when installed) runs a debug container in the target\'s PID namespace', { skip: process.env.CI !== 'true' && !hasKubectl && 'no kubectl on PATH (under CI=true the test runs and fails without it)' }, async (t) => {
      if (skip) return t.skip(skip);
      const r = await new Promise<{ code: number; out: string }>((resolve) => {
        execFile('kubectl', ['--kubeconfig', api.adminKubeconfig(), 'debug', POD, `--image=${image}`, '--image-pull-policy=Never', '--target=test-container-1', '--', 'sh', '-c', 'echo "debug-ok $(tr "\\0" " " < /proc/1/cmdline)"; sleep 3600'],
          { timeout: 60_000 }, (e, out, err) => resolve({ code: e ? Number((e as { code?: number }).code ?? -1) : 0, out: out + err }));
      });
      assert.equal(r.code, 0, r.out);
      const name = /debug container name to (\S+?)\.?$/m.exec(r.out)?.[1];
      assert.ok(name, r.out);
      await running(name);
      await logOf(name, /debug-ok \/bin\/sleep 10000 /);
    });

    it('an exited ephemeral container is not restarted; deleting the pod stops them all and the pod goes', async (t) => {
      if (skip) return t.skip(skip);
      // By now (a minute of syncs later, at least one per status change) debugger2 exited long ago.
      assert.equal(ecStatus('debugger2')?.restartCount, 0);
      assert.ok(ecStatus('debugger2')?.state?.terminated, 'still terminated');
      assert.equal(startedEvents('debugger2'), 1);
      assert.equal(startedEvents('debugger'), 1);
      await core.deleteNamespacedPod({ name: POD, namespace: NS });
      await eventually(async () => (getPod() ? undefined : true), 120_000, 'the pod object deleted (every container stopped)');
    });
  });
}

suite('containerd', 'node-eph-ctd', 'localhost/busybox:latest', () => tempPrivateContainerd('nodelet-ephemeral-ctd-'));

suite('the embedded runtime', 'node-eph-emb', HOST_IMAGE, async () => ({ down: async () => {} }));
