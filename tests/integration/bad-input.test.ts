// Bad input never crashes the agent, never loses or disturbs an unrelated pod, and is reported where the user
// looks: pod status reason, a Kubernetes event, a log line. Real agent + embedded runtime. Wrong-typed manifests
// (issue #12) stay in the directory for the whole file while other pods start, update and stop.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readOnlyPods, startStack, waitUntil, type Stack } from '../../e2e/harness.ts';
import { trpcQuery } from './agent-client.ts';

interface PodJson {
  metadata: { name: string; namespace: string };
  status?: {
    phase?: string;
    containerStatuses?: Array<{
      name: string;
      restartCount: number;
      state: { waiting?: { reason?: string; message?: string }; running?: object; terminated?: { reason?: string } };
      lastState?: { terminated?: { reason?: string; exitCode?: number; message?: string } };
    }>;
  };
}

interface K8sEvent {
  type: string;
  reason: string;
  message: string;
  involvedObject: { kind: string; name: string };
}

const pod = (name: string, image: string, command: string[], extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: ${image}
      command: ${JSON.stringify(command)}
${extra}`;

let stack: Stack;
const host = 'nodelet.local/host:latest';

before(async () => {
  stack = await startStack({
    nodeName: 'bad',
    withConsole: false,
    extraAgentArgs: ['--crashloop-backoff-initial', '1s', '--crashloop-backoff-max', '4s'],
  });
  const m = stack.manifests;
  writeFileSync(join(m, 'a-good.yaml'), pod('good', host, ['sh', '-c', 'while true; do sleep 1; done']));
  writeFileSync(join(m, 'b-broken.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: [unclosed\n');
  writeFileSync(join(m, 'c-invalid.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: invalid\nspec:\n  containers: []\n');
  writeFileSync(join(m, 'd-dup.yaml'), pod('good', host, ['sh', '-c', 'sleep 1000']));
  writeFileSync(join(m, 'e-image.yaml'), pod('noimage', '127.0.0.1:1/does-not-exist:v1', ['sh']));
  writeFileSync(join(m, 'f-nocmd.yaml'), pod('nocmd', host, ['/no/such/binary']));
  writeFileSync(join(m, 'g-wrongtype.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: wrongtype\nspec:\n  containers: "notalist"\n');
  writeFileSync(join(m, 'h-ports.yaml'), pod('ports', host, ['sh'], '      ports: abc\n'));
  // Written aside and renamed in, so no scan reads half of it (hidden files are ignored).
  writeFileSync(join(m, '.i-annotation.yaml.tmp'), pod('annotation', host, ['sh']).replace('metadata:\n', `metadata:\n  annotations:\n    big: ${'x'.repeat(10 * 1024 * 1024)}\n`));
  renameSync(join(m, '.i-annotation.yaml.tmp'), join(m, 'i-annotation.yaml'));
  // A manifest kept outside the directory and linked in, as configuration management tools do.
  writeFileSync(join(stack.dir, 'linked-pod.yaml'), pod('linked', host, ['sh', '-c', 'while true; do sleep 1; done']));
  symlinkSync(join(stack.dir, 'linked-pod.yaml'), join(m, 'j-linked.yaml'));
  symlinkSync(join(stack.dir, 'no-such-target.yaml'), join(m, 'k-dangling.yaml'));
});

after(async () => {
  await stack?.stop();
});

const find = (pods: PodJson[], name: string) => pods.find((p) => p.metadata.name === `${name}-bad`);

test('the good pod runs although the directory holds broken, invalid and duplicate manifests', async () => {
  // The first pod of a fresh stack also waits for the embedded runtime: allow for a loaded machine.
  await waitUntil('good Running', async () => find((await readOnlyPods(stack)) as PodJson[], 'good')?.status?.phase === 'Running', 120_000);
  const pods = (await readOnlyPods(stack)) as PodJson[];
  assert.equal(pods.filter((p) => p.metadata.name === 'good-bad').length, 1, 'the duplicate is refused, the first kept');
  assert.equal(find(pods, 'invalid'), undefined, 'an invalid pod is not created');
});

const BAD_FILES = ['b-broken.yaml', 'c-invalid.yaml', 'd-dup.yaml', 'g-wrongtype.yaml', 'h-ports.yaml', 'i-annotation.yaml'];

test('broken, invalid, wrong-typed and duplicate manifests are reported as events and log lines naming the file', async () => {
  let events: Array<K8sEvent & { eventType?: string }> = [];
  await waitUntil('a warning per bad file', async () => {
    events = await trpcQuery<Array<K8sEvent & { eventType?: string }>>(stack, 'events.recent', { types: ['k8sEvent'], limit: 500 });
    const text = events.map((e) => e.message).join('\n');
    return BAD_FILES.every((f) => text.includes(f));
  }, 30_000);
  const about = (f: string) => events.find((e) => e.message.includes(f));
  assert.match(about('g-wrongtype.yaml')?.message ?? '', /spec\.containers: Invalid value: "string": spec\.containers in body must be of type array: "string"/);
  assert.match(about('h-ports.yaml')?.message ?? '', /spec\.containers\[0\]\.ports: Invalid value: "string"/);
  assert.match(about('i-annotation.yaml')?.message ?? '', /metadata\.annotations: Too long: must have at most 262144 bytes/);
  assert.ok((about('i-annotation.yaml')?.message.length ?? 0) < 2000, 'the 10 MB value is not copied into the event');
  for (const f of ['g-wrongtype.yaml', 'h-ports.yaml']) {
    assert.deepEqual([about(f)?.eventType, about(f)?.reason, about(f)?.involvedObject.kind], ['Warning', 'FailedValidation', 'Node'], f);
  }
  const log = readFileSync(join(stack.dir, 'agent.log'), 'utf8');
  for (const f of BAD_FILES) assert.match(log, new RegExp(f.replace('.', '\\.')), `log names ${f}`);
  assert.match(log, /duplicat/i);
  assert.match(log, /k-dangling\.yaml/, 'the dangling link is logged');
  assert.ok(!log.includes('x'.repeat(5000)), 'the 10 MB annotation never reaches the log');
});

test('an unknown image gives ErrImagePull, then ImagePullBackOff, and the pod stays Pending', async () => {
  // ErrImagePull lasts one sync (well under a second) between ever longer back-offs, so polling the pod may miss
  // it: the status history the console streams (podStatus events) has every version.
  await waitUntil('ErrImagePull and ImagePullBackOff', async () => {
    const history = await trpcQuery<Array<{ containers: Array<{ reason?: string }> }>>(stack, 'events.recent', { types: ['podStatus'], pod: 'noimage-bad', limit: 5000 });
    const seen = new Set(history.map((e) => e.containers[0]?.reason));
    return seen.has('ErrImagePull') && seen.has('ImagePullBackOff');
  }, 90_000);
  const p = find((await readOnlyPods(stack)) as PodJson[], 'noimage');
  assert.equal(p?.status?.phase, 'Pending');
  assert.match(p?.status?.containerStatuses?.[0]?.state.waiting?.reason ?? '', /^(ErrImagePull|ImagePullBackOff)$/);
});

test('a command that does not exist gives StartError and then CrashLoopBackOff', async () => {
  await waitUntil('StartError + CrashLoopBackOff', async () => {
    const c = find((await readOnlyPods(stack)) as PodJson[], 'nocmd')?.status?.containerStatuses?.[0];
    return c?.lastState?.terminated?.reason === 'StartError' && c.state.waiting?.reason === 'CrashLoopBackOff';
  }, 60_000);
  const c = find((await readOnlyPods(stack)) as PodJson[], 'nocmd')?.status?.containerStatuses?.[0];
  assert.equal(c?.lastState?.terminated?.exitCode, 128);
  assert.match(c?.lastState?.terminated?.message ?? '', /no\/such\/binary/);
});

test('a symlinked manifest runs; pods still start, update and stop while the wrong-typed files stay', async () => {
  await waitUntil('linked Running', async () => find((await readOnlyPods(stack)) as PodJson[], 'linked')?.status?.phase === 'Running');
  const late = join(stack.manifests, 'l-late.yaml');
  writeFileSync(late, pod('late', host, ['sh', '-c', 'while true; do sleep 1; done']));
  await waitUntil('late Running', async () => find((await readOnlyPods(stack)) as PodJson[], 'late')?.status?.phase === 'Running');
  writeFileSync(late, pod('late', host, ['sh', '-c', 'while true; do sleep 2; done']));
  await waitUntil('late updated', async () => {
    const p = find((await readOnlyPods(stack)) as PodJson[], 'late') as (PodJson & { spec?: { containers: Array<{ command: string[] }> } }) | undefined;
    return p?.spec?.containers[0]?.command.at(-1)?.includes('sleep 2') === true && p.status?.phase === 'Running';
  }, 120_000);
  unlinkSync(late);
  await waitUntil('late removed', async () => find((await readOnlyPods(stack)) as PodJson[], 'late') === undefined);
  const pods = (await readOnlyPods(stack)) as PodJson[];
  for (const name of ['wrongtype', 'ports', 'annotation']) assert.equal(find(pods, name), undefined, `${name} is not created`);
});

test('the good pod was never disturbed (no restarts) by all of the above', async () => {
  const c = find((await readOnlyPods(stack)) as PodJson[], 'good')?.status?.containerStatuses?.[0];
  assert.equal(c?.restartCount, 0);
  assert.ok(c?.state.running);
});
