/**
 * The static CPU manager with a real agent, on the embedded runtime and on containerd (#17 item 3): with
 * reservedSystemCPUs=0 on a 2-CPU machine, a Guaranteed pod asking cpu: 1 runs on CPU 1 alone and a BestEffort
 * pod on the shared pool (CPU 0), as /proc/self/status Cpus_allowed_list shows inside each container; the
 * cpu_manager_state file holds the kubelet's JSON; when the Guaranteed pod goes, the reconcile loop moves the
 * shared pod onto CPUs 0-1 (UpdateContainerResources); restarted with policy none, the agent refuses to start and
 * names the state file. Root and at least 2 CPUs with a cgroup v1 cpuset hierarchy, or skipped (a failure under CI=true).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HOST_IMAGE, writeStaticPod } from './testing/api-node.ts';
import { canManageCgroups, removeCgroupTree } from './testing/cgroups.ts';
import { call, nodeAgent, type NodeAgent } from './testing/cluster-node.ts';
import { setUpRuntime, tempPrivateContainerd, type RuntimeSetup } from './testing/private-containerd.ts';
import { eventually } from './testing/processes.ts';

const PRINT = "trap 'exit 0' TERM; while true; do grep Cpus_allowed_list /proc/self/status; sleep 1; done";

function podYaml(name: string, image: string, resources: string): string {
  return [
    'apiVersion: v1', 'kind: Pod', `metadata: { name: ${name}, namespace: default }`, 'spec:',
    '  terminationGracePeriodSeconds: 1', '  containers:', '    - name: main', `      image: ${image}`, '      imagePullPolicy: Never',
    `      command: ["sh", "-c", ${JSON.stringify(PRINT)}]`, ...(resources ? [`      resources: ${resources}`] : []), '',
  ].join('\n');
}

const why = process.getuid?.() !== 0 || !canManageCgroups() ? 'needs root and writable cgroups'
  : cpus().length < 2 ? 'needs 2 CPUs'
  : !existsSync('/sys/fs/cgroup/cpuset/cpuset.cpus') ? 'needs the cgroup v1 cpuset hierarchy' : undefined;
if (why && process.env.CI === 'true') throw new Error(`cpu manager integration test cannot run under CI: ${why}`);

function suite(runtime: string, node: string, image: string, setup: RuntimeSetup): void {
  describe(`static CPU manager on ${runtime}`, { timeout: 120_000, skip: why ?? false }, () => {
    let agent: NodeAgent;
    let down = async () => {};
    let skip: string | undefined;
    let policy = 'static';
    const cgroupRoot = `/nodelet-it-${node}-${process.pid}`;
    const tls = () => ({ cert: readFileSync(join(agent.root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(agent.root, 'pki', 'console.key'), 'utf8') });
    /** The last Cpus_allowed_list a pod's container printed. */
    const lastCpus = async (pod: string) => {
      const r = await call(`https://127.0.0.1:${agent.port}/containerLogs/default/${pod}-${node}/main`, tls());
      const all = [...r.body.matchAll(/Cpus_allowed_list:\s*(\S+)/g)];
      return r.status === 200 ? all.at(-1)?.[1] : undefined;
    };
    const until = (pod: string, want: string) => eventually(async () => ((await lastCpus(pod)) === want ? true : undefined), 40_000, `${pod} on CPUs ${want}`);

    before(async () => {
      if (why) return;
      const r = await setUpRuntime(setup);
      if ('skip' in r) return void (skip = r.skip);
      down = r.down;
      agent = await nodeAgent(node, (root) => [
        '--pod-manifest-path', join(root, 'manifests'), '--file-check-frequency', '1s', '--cgroup-root', cgroupRoot,
        '--cpu-manager-policy', policy, '--reserved-cpus', '0', '--cpu-manager-reconcile-period', '1s',
        ...(r.endpoint ? ['--container-runtime-endpoint', r.endpoint] : []),
      ]);
      writeStaticPod(agent.root, 'pinned', podYaml('pinned', image, '{ limits: { cpu: "1", memory: 64Mi } }'));
      writeStaticPod(agent.root, 'shared', podYaml('shared', image, ''));
      await agent.start();
    });

    after(async () => {
      await agent?.cleanup();
      await down();
      if (!why) removeCgroupTree(cgroupRoot);
    });

    it('the Guaranteed container runs on CPU 1 alone, the BestEffort one on the shared pool; the state file says so', async (t) => {
      if (skip) return t.skip(skip);
      await until('pinned', '1');
      await until('shared', '0');
      const state = JSON.parse(readFileSync(join(agent.root, 'cpu_manager_state'), 'utf8')) as Record<string, unknown>;
      assert.equal(state['policyName'], 'static');
      assert.equal(state['defaultCpuSet'], '0');
      const entries = state['entries'] as Record<string, Record<string, string>>;
      assert.deepEqual(Object.values(entries), [{ main: '1' }]);
      assert.equal(typeof state['checksum'], 'number');
    });

    it('the Guaranteed pod gone, its CPU returns to the pool and the shared container is moved onto it', async (t) => {
      if (skip) return t.skip(skip);
      rmSync(join(agent.root, 'manifests', 'pinned.yaml'));
      await until('shared', '0-1');
      const state = JSON.parse(readFileSync(join(agent.root, 'cpu_manager_state'), 'utf8')) as Record<string, unknown>;
      assert.equal(state['defaultCpuSet'], '0-1');
      assert.equal(state['entries'], undefined);
    });

    it('restarted with policy none, the agent refuses to start and names the state file', async (t) => {
      if (skip) return t.skip(skip);
      await agent.kill('SIGKILL');
      policy = 'none';
      const file = join(agent.root, 'cpu_manager_state');
      await assert.rejects(agent.start(), (err: Error) => err.message.includes(`configured policy \\"none\\" differs from state checkpoint policy \\"static\\"`) && err.message.includes(file));
      policy = 'static';
    });
  });
}

suite('the embedded runtime', 'cpu-emb', HOST_IMAGE, async () => ({ down: async () => {} }));
suite('containerd', 'cpu-ctd', 'localhost/busybox:latest', () => tempPrivateContainerd('nodelet-cpu-ctd-'));
