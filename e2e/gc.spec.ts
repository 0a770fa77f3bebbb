// Issue 7 in the console: node conditions and eviction signals on the node page; the GC page runs image GC
// and container GC through the tRPC mutations and shows what they removed. Issue 17: the Resources page with a
// device plugin (the test plugin, real gRPC) registered on the same agent.
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { TestDevicePlugin } from '@nodelet/core/testing';
import { gotoStable, signIn, startStack, type Stack } from './harness.ts';

let stack: Stack;

test.beforeAll(async () => {
  stack = await startStack({ nodeName: 'e2e-gc' });
});

test.afterAll(async () => {
  await stack?.stop();
});

// Each test's browser context signs in with the token URL, as after `npm start`.
test.beforeEach(async ({ page }) => {
  await signIn(page, stack);
});

test('the node page shows the conditions and each eviction signal against its thresholds', async ({ page }) => {
  await gotoStable(page, stack.consoleUrl);
  await expect(page.getByTestId('pressure-Ready')).toHaveAttribute('data-status', 'True');
  for (const c of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) {
    await expect(page.getByTestId(`pressure-${c}`)).toHaveAttribute('data-status', 'False');
  }
  const nodefs = page.getByTestId('pressure-nodefs.available');
  await expect(nodefs).toHaveAttribute('data-met', 'false');
  await expect(nodefs).not.toHaveAttribute('data-available', '');
  await expect(nodefs).toContainText('hard');
});

test('image GC and container GC run from the GC page and show their results and history', async ({ page }) => {
  await gotoStable(page, `${stack.consoleUrl}/gc`);
  await expect(page.getByTestId('connection-status')).toHaveText(/live/i);
  await expect(page.getByTestId('gc-policies')).toContainText('high 85%');

  await page.getByTestId('gc-containers-button').click();
  const result = page.getByTestId('gc-result');
  await expect(result).toHaveAttribute('data-kind', 'containers');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toHaveAttribute('data-freed-bytes', /^\d+$/);

  await page.getByTestId('gc-images-button').click();
  await expect(result).toHaveAttribute('data-kind', 'images');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toHaveAttribute('data-removed', /^\d+$/);
  await expect(page.getByTestId('gc-history-row').first()).toBeVisible();
});

test('the Resources page: CPU policy none, a device plugin\'s devices, and a health change arriving live', async ({ page }) => {
  const plugin = new TestDevicePlugin({ dir: join(stack.rootDir, 'device-plugins'), resource: 'example.com/e2e', deviceIds: ['dev-a', 'dev-b'] });
  try {
    await plugin.serve();
    await plugin.register();
    await gotoStable(page, `${stack.consoleUrl}/resources`);
    await expect(page.getByTestId('connection-status')).toHaveText(/live/i);
    await expect(page.getByTestId('cpu-policy')).toHaveText('cpuManagerPolicy: none');
    await expect(page.getByTestId('memory-policy')).toHaveText('memoryManagerPolicy: None');
    const resource = page.locator('[data-testid="device-resource"][data-resource="example.com/e2e"]');
    await expect(resource).toHaveAttribute('data-allocatable', '2');
    await expect(resource.getByTestId('device-row')).toHaveCount(2);
    plugin.setHealth('dev-b', false);
    await expect(resource.locator('[data-device="dev-b"]')).toHaveAttribute('data-health', 'Unhealthy');
    await expect(resource).toHaveAttribute('data-allocatable', '1');
  } finally {
    await plugin.stop();
  }
});
