import { test, expect } from '@playwright/test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostPodYaml, readOnlyPods, gotoStable, signIn, startStack, waitUntil, type Stack } from './harness.ts';

let stack: Stack;

test.beforeAll(async () => {
  stack = await startStack({ nodeName: 'e2e-node' });
});

test.afterAll(async () => {
  await stack?.stop();
});

// Each test's browser context signs in with the token URL, as after `npm start`.
test.beforeEach(async ({ page }) => {
  await signIn(page, stack);
});

const manifest = (name: string) => hostPodYaml(name, 'echo started; while true; do sleep 1; done');

test('node page shows the node and a live connection', async ({ page }) => {
  await gotoStable(page, stack.consoleUrl);
  await expect(page.getByText(stack.nodeName).first()).toBeVisible();
  await expect(page.getByTestId('connection-status')).toHaveText(/live/i);
});

test('a dropped manifest becomes a Running pod in the page and its events reach the tail; removing it terminates the pod', async ({ page }) => {
  const podName = `e2e-web-${stack.nodeName}`;
  await gotoStable(page, stack.consoleUrl);
  await expect(page.getByTestId('connection-status')).toHaveText(/live/i);
  const file = join(stack.manifests, 'e2e-web.yaml');
  writeFileSync(file, manifest('e2e-web'));

  const phase = page.getByTestId(`pod-phase-default-${podName}`);
  await expect(phase).toHaveText(/Running/);
  // The agent agrees.
  const pods = await readOnlyPods(stack);
  expect(pods.find((p) => p.metadata.name === podName)?.status?.phase).toBe('Running');

  await gotoStable(page, `${stack.consoleUrl}/events`);
  const rows = page.locator(`[data-testid="tail-row"][data-pod="${podName}"]`);
  await expect(rows.first()).toBeVisible();
  await expect(page.locator(`[data-testid="tail-row"][data-pod="${podName}"][data-type="pleg"]`).first()).toBeVisible();

  rmSync(file);
  // The tail shows the pod going away (a config REMOVE and the container dying), live.
  await expect(page.locator(`[data-testid="tail-row"][data-pod="${podName}"][data-type="podConfig"]`).first()).toBeVisible();
  await waitUntil('pod gone from /pods', async () => !(await readOnlyPods(stack)).some((p) => p.metadata.name === podName), 60_000);
  await gotoStable(page, stack.consoleUrl);
  await expect(page.getByTestId(`pod-row-default-${podName}`)).toHaveCount(0);
});
