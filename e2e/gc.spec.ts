// Issue 7 in the console: node conditions and eviction signals on the node page; the GC page runs image GC
// and container GC through the tRPC mutations and shows what they removed.
import { test, expect } from '@playwright/test';
import { signIn, startStack, type Stack } from './harness.ts';

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
  await page.goto(stack.consoleUrl);
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
  await page.goto(`${stack.consoleUrl}/gc`);
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
