// Bad input never crashes the agent, never loses or disturbs an unrelated pod, and is reported where the user
// looks: pod status reason, a Kubernetes event, a log line. Real agent + embedded runtime.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
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
});

after(async () => {
  await stack?.stop();
});

const find = (pods: PodJson[], name: string) => pods.find((p) => p.metadata.name === `${name}-bad`);

test('the good pod runs although the directory holds broken, invalid and duplicate manifests', async () => {
  await waitUntil('good Running', async () => find((await readOnlyPods(stack)) as PodJson[], 'good')?.status?.phase === 'Running');
  const pods = (await readOnlyPods(stack)) as PodJson[];
  assert.equal(pods.filter((p) => p.metadata.name === 'good-bad').length, 1, 'the duplicate is refused, the first kept');
  assert.equal(find(pods, 'invalid'), undefined, 'an invalid pod is not created');
});

test('broken, invalid and duplicate manifests are reported as events and log lines naming the file', async () => {
  await waitUntil('three warnings', async () => {
    const events = await trpcQuery<Array<K8sEvent & { type: string; eventType?: string }>>(stack, 'events.recent', { types: ['k8sEvent'], limit: 500 });
    const text = events.map((e) => e.message).join('\n');
    return ['b-broken.yaml', 'c-invalid.yaml', 'd-dup.yaml'].every((f) => text.includes(f));
  }, 30_000);
  const log = readFileSync(join(stack.dir, 'agent.log'), 'utf8');
  for (const f of ['b-broken.yaml', 'c-invalid.yaml', 'd-dup.yaml']) assert.match(log, new RegExp(f.replace('.', '\\.')), `log names ${f}`);
  assert.match(log, /duplicat/i);
});

test('an unknown image gives ErrImagePull, then ImagePullBackOff, and the pod stays Pending', async () => {
  const seen = new Set<string>();
  await waitUntil('ErrImagePull and ImagePullBackOff', async () => {
    const p = find((await readOnlyPods(stack)) as PodJson[], 'noimage');
    const r = p?.status?.containerStatuses?.[0]?.state.waiting?.reason;
    if (r) seen.add(r);
    assert.equal(p?.status?.phase, 'Pending');
    return seen.has('ErrImagePull') && seen.has('ImagePullBackOff');
  }, 90_000);
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

test('the good pod was never disturbed (no restarts) by all of the above', async () => {
  const c = find((await readOnlyPods(stack)) as PodJson[], 'good')?.status?.containerStatuses?.[0];
  assert.equal(c?.restartCount, 0);
  assert.ok(c?.state.running);
});
