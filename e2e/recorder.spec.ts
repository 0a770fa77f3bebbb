// Issue 16 item 4, the flight recorder: a crash-looping pod (its liveness probe always fails, so the kubelet kills
// and restarts it, then backs off) shows its kills and back-offs on its history page (linked from the pod page),
// the node's timeline lists them too, and after an agent restart the same rows (same ids, read from
// <root-dir>/flight-recorder/recorder.db) are still there. Screenshots at 1280 px and 375 px. One stack.
import { test, expect, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gotoStable, signIn, startStack, type Stack } from './harness.ts';

const NODE = 'e2e-recorder';
const POD = `crashy-${NODE}`;
let stack: Stack;
let page: Page;

const manifest = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'crashy', namespace: 'default' },
  spec: {
    terminationGracePeriodSeconds: 1,
    containers: [{ name: 'app', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never', command: ['sleep', '3600'], livenessProbe: { exec: { command: ['false'] }, periodSeconds: 1, failureThreshold: 1 } }],
  },
};

const rowIds = async (kind: string) => page.locator(`[data-testid="recorder-row"][data-kind="${kind}"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));

test.describe.serial('flight recorder', () => {
  test.beforeAll(async ({ browser }) => {
    stack = await startStack({ nodeName: NODE });
    writeFileSync(join(stack.manifests, 'crashy.json'), JSON.stringify(manifest));
    page = await (await browser.newContext()).newPage();
    await signIn(page, stack);
  });

  test.afterAll(async () => {
    await page?.context().close();
    await stack?.stop();
  });

  let before: { kill: (string | null)[]; backoff: (string | null)[] } = { kill: [], backoff: [] };

  test('the pod history shows the kills and back-offs of a crash-looping pod; 1280 and 375 px', async ({}, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await gotoStable(page, `${stack.consoleUrl}/pods/default/${POD}`);
    await page.getByTestId('pod-history-link').click();
    await expect(page).toHaveURL(new RegExp(`/recorder/pods/default/${POD}$`));
    const timeline = page.getByTestId('recorder-rows');
    await expect(timeline.locator('[data-kind="kill"]').first()).toContainText('failed liveness probe, will be restarted');
    await expect(timeline.locator('[data-kind="backoff"]').first()).toContainText(/back-off \d+[sm]/);
    await expect(timeline.locator('[data-kind="admission"]').first()).toContainText('Admitted');
    await expect(timeline.locator('[data-kind="probe"]').first()).toContainText(/liveness failure/);
    before = { kill: await rowIds('kill'), backoff: await rowIds('backoff') };
    await testInfo.attach('recorder-pod-1280', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(timeline.locator('[data-kind="backoff"]').first()).toBeVisible();
    await testInfo.attach('recorder-pod-375', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    // Filter to kills only: every row left is a kill.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('recorder-kind-kill').click();
    await expect(timeline.locator('[data-testid="recorder-row"]:not([data-kind="kill"])')).toHaveCount(0);
    await expect(timeline.locator('[data-kind="kill"]').first()).toBeVisible();
  });

  test('the rows are still there after an agent restart, and the node timeline lists them', async ({}, testInfo) => {
    await stack.restartAgent();
    await gotoStable(page, `${stack.consoleUrl}/recorder/pods/default/${POD}`);
    const timeline = page.getByTestId('recorder-rows');
    await expect(timeline.locator('[data-kind="admission"]')).toHaveCount(2); // admitted before and after the restart
    const kills = await rowIds('kill');
    const backoffs = await rowIds('backoff');
    for (const id of before.kill) expect(kills).toContain(id);
    for (const id of before.backoff) expect(backoffs).toContain(id);
    await testInfo.attach('recorder-after-restart-1280', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    await gotoStable(page, `${stack.consoleUrl}/recorder`);
    await expect(page.getByTestId('recorder-rows').locator(`[data-kind="kill"] a[href="/recorder/pods/default/${POD}"]`).first()).toBeVisible();
    await page.setViewportSize({ width: 375, height: 800 });
    await testInfo.attach('recorder-node-375', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  });
});
