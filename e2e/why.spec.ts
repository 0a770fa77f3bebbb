// Issue 16 item 5, "Why isn't my pod running?": three static pods that do not run for three reasons — an image
// that cannot be pulled, an init container that exits 1, a readiness probe answering 503 — each with its plain
// explanation under its status in the pod list (full text as the tooltip) and at the top of its pod page, live.
// Screenshots at 1280 px and 375 px are attached to the report. One stack for the whole file.
import { test, expect, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, gotoStable, signIn, startStack, type Stack } from './harness.ts';

const NODE = 'e2e-why';
let stack: Stack;
let page: Page;
let port = 0;

const host = { image: 'nodelet.local/host:latest', imagePullPolicy: 'Never' };
const pod = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { terminationGracePeriodSeconds: 1, ...spec } });
const name = (p: string) => `${p}-${NODE}`;
const WANT: Array<[string, RegExp]> = [
  ['bad-image', /^image localhost:1\/nope:1 cannot be pulled \(ErrImagePull: .+\); (next retry in \d+ [sm]|retrying)$/],
  ['init-fail', /^waiting for init container `migrate` \(exit 1, \d+ restarts?\)$/],
  ['not-ready', /^readiness probe failing for \d+ [sm]: HTTP 503 from :\d+\/healthz$/],
];

test.describe.serial('why is my pod not running', () => {
  test.beforeAll(async ({ browser }) => {
    stack = await startStack({ nodeName: NODE });
    port = await freePort();
    const serve503 = `require('http').createServer((q, s) => { s.statusCode = 503; s.end('busy'); }).listen(${port}, '0.0.0.0')`;
    writeFileSync(join(stack.manifests, 'bad-image.json'), pod('bad-image', { containers: [{ name: 'app', image: 'localhost:1/nope:1', imagePullPolicy: 'Always' }] }));
    writeFileSync(join(stack.manifests, 'init-fail.json'), pod('init-fail', {
      initContainers: [{ name: 'migrate', ...host, command: ['sh', '-c', 'echo migrating; exit 1'] }],
      containers: [{ name: 'app', ...host, command: ['sleep', '3600'] }],
    }));
    writeFileSync(join(stack.manifests, 'not-ready.json'), pod('not-ready', {
      hostNetwork: true,
      containers: [{ name: 'web', ...host, command: ['node', '-e', serve503], readinessProbe: { httpGet: { port, path: '/healthz' }, periodSeconds: 1, failureThreshold: 1 } }],
    }));
    page = await (await browser.newContext()).newPage();
    await signIn(page, stack);
  });

  test.afterAll(async () => {
    await page?.context().close();
    await stack?.stop();
  });

  test('the list shows each pod\'s why under its status, with the text as the tooltip; 1280 and 375 px', async ({}, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await gotoStable(page, stack.consoleUrl);
    for (const [p, want] of WANT) {
      const why = page.getByTestId(`pod-why-default-${name(p)}`);
      await expect(why).toHaveText(want);
      await expect(why).toHaveAttribute('title', want);
    }
    await testInfo.attach('why-list-1280', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByTestId(`pod-why-default-${name('init-fail')}`)).toBeVisible();
    await testInfo.attach('why-list-375', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  });

  test('each pod page says why at the top', async ({}, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const [p, want] of WANT) {
      await gotoStable(page, `${stack.consoleUrl}/pods/default/${name(p)}`);
      await expect(page.getByTestId('pod-why')).toContainText(want.source.includes('image') ? 'cannot be pulled' : p === 'init-fail' ? 'waiting for init container `migrate`' : 'readiness probe failing');
      await expect(page.getByTestId('pod-why')).toHaveText(new RegExp(`^Why isn't it running\\? ${want.source.slice(1)}`));
    }
    await testInfo.attach('why-pod-1280', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByTestId('pod-why')).toBeVisible();
    await testInfo.attach('why-pod-375', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  });
});
