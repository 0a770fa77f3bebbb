// The logs viewer (#16 item 1) in Chromium against a real agent and console (one stack for the file): a followed
// log shows a line the container wrote after the page opened; a crash-looping container's previous instance;
// search highlights and steps through matches; download gives the kept lines as a file; a wrong tail value is
// named beside its field. Screenshots at 1280 px and 375 px are attached to the report.
import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostPodYaml, readOnlyPods, gotoStable, signIn, startStack, waitUntil, type Stack } from './harness.ts';

let stack: Stack;
const NODE = 'e2e-logs';
const live = `logs-live-${NODE}`;
const crash = `logs-crash-${NODE}`;

// 3000 lines at start (so the view must window them), two needles, then a tick a second.
const LIVE = 'for i in $(seq 1 3000); do echo "boot line $i"; done; echo "needle one"; echo "between"; echo "Needle two"; i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 1; done';
// Counts its instances in an emptyDir (kept across restarts), prints which one it is, and fails.
const CRASH = 'n=$(cat /d/n 2>/dev/null || echo 0); n=$((n+1)); echo $n > /d/n; echo "crash instance $n"; echo exiting; exit 3';

// The crash counter's emptyDir, mounted at /d.
const manifest = (name: string, script: string) =>
  hostPodYaml(name, script, { containerTail: '      volumeMounts: [{ name: d, mountPath: /d }]\n', podTail: '  volumes: [{ name: d, emptyDir: {} }]\n' });

test.describe.serial('logs viewer', () => {
  test.beforeAll(async () => {
    stack = await startStack({ nodeName: NODE });
    writeFileSync(join(stack.manifests, 'logs-live.yaml'), manifest('logs-live', LIVE));
    writeFileSync(join(stack.manifests, 'logs-crash.yaml'), manifest('logs-crash', CRASH));
  });

  test.afterAll(async () => {
    await stack?.stop();
  });

  test.beforeEach(async ({ page }) => {
    await signIn(page, stack);
  });

  async function screenshots(page: Page, info: TestInfo, name: string): Promise<void> {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      const path = info.outputPath(`${name}-${width}.png`);
      await page.screenshot({ path, fullPage: true });
      await info.attach(`${name} at ${width} px`, { path, contentType: 'image/png' });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  test('follow: a line the container writes after the page opened appears; only a window of 3000+ lines is in the DOM', async ({ page }, info) => {
    await waitUntil('the live pod running', async () => (await readOnlyPods(stack)).some((p) => p.metadata.name === live && p.status?.phase === 'Running'), 120_000);
    await gotoStable(page, `${stack.consoleUrl}/pods/default/${live}`);
    await page.getByTestId('container-logs-main').click();
    await expect(page).toHaveURL(/\/logs\?container=main/);
    const scroller = page.getByTestId('log-scroller');
    await expect(page.getByTestId('log-status')).toHaveAttribute('data-phase', 'streaming');
    await expect(scroller.getByText(/^tick \d+$/).last()).toBeVisible();
    const first = Number((await scroller.getByText(/^tick \d+$/).last().textContent())?.split(' ')[1]);
    // written after the page opened: a later tick arrives over the open (followed) response
    await expect(scroller.getByText(`tick ${first + 2}`, { exact: true })).toBeVisible({ timeout: 15_000 });
    const lines = Number(await scroller.getAttribute('data-lines'));
    const rendered = Number(await scroller.getAttribute('data-rendered'));
    expect(lines).toBeGreaterThan(3000);
    expect(rendered).toBeLessThan(150);
    await screenshots(page, info, 'logs-follow');
  });

  test('search highlights every match and steps through them; timestamps and wrap toggle', async ({ page }) => {
    await gotoStable(page, `${stack.consoleUrl}/pods/default/${live}/logs?container=main`);
    await expect(page.getByTestId('log-status')).toHaveAttribute('data-phase', 'streaming');
    await expect(page.getByTestId('log-scroller')).toHaveAttribute('data-lines', /^[3-9]\d{3}$/);
    await page.getByTestId('log-search').fill('needle');
    await expect(page.getByTestId('log-search-count')).toHaveText('1 / 2');
    // the view scrolled back to the first match, far above the followed end
    await expect(page.getByTestId('log-match-current')).toHaveText('needle');
    await expect(page.getByTestId('log-match')).toHaveText('Needle');
    await page.getByTestId('log-search').press('Enter');
    await expect(page.getByTestId('log-search-count')).toHaveText('2 / 2');
    await expect(page.getByTestId('log-match-current')).toHaveText('Needle');
    await page.getByTestId('log-search-prev').click();
    await expect(page.getByTestId('log-search-count')).toHaveText('1 / 2');
    await expect(page.getByTestId('log-ts')).toHaveCount(0);
    await page.getByTestId('log-timestamps').check();
    await expect(page.getByTestId('log-ts').first()).toHaveText(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z $/);
    await page.getByTestId('log-wrap').check();
    await expect(page.getByTestId('log-match-current')).toBeVisible();
  });

  test('download gives the kept lines as a file; tail lines narrows the view; a wrong tail value is named', async ({ page }) => {
    await gotoStable(page, `${stack.consoleUrl}/pods/default/${live}/logs?container=main&tailLines=5&follow=0`);
    await expect(page.getByTestId('log-status')).toHaveAttribute('data-phase', 'ended');
    await expect(page.getByTestId('log-count')).toHaveText('5 lines');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('log-download').click()]);
    expect(download.suggestedFilename()).toBe(`${live}_main.log`);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(5);
    expect(text).toMatch(/^tick \d+\n/);
    await page.getByTestId('log-tail').fill('-3');
    await page.getByTestId('log-apply').click();
    await expect(page.getByTestId('log-field-error')).toHaveText('tailLines: Invalid value: -3: must be greater than or equal to 0');
    await expect(page.getByTestId('log-count')).toHaveText('5 lines');
  });

  test('previous: the log of the crashed instance (lastState.terminated), linked from the pod page', async ({ page }, info) => {
    await waitUntil('the crash-looping container restarted', async () => {
      const p = (await readOnlyPods(stack)).find((x) => x.metadata.name === crash) as { status?: { containerStatuses?: Array<{ lastState?: { terminated?: unknown } }> } } | undefined;
      return Boolean(p?.status?.containerStatuses?.[0]?.lastState?.terminated);
    }, 90_000);
    await gotoStable(page, `${stack.consoleUrl}/pods/default/${crash}`);
    await page.getByTestId('container-previous-logs-main').click();
    await expect(page.getByTestId('log-viewer')).toHaveAttribute('data-previous', 'true');
    const scroller = page.getByTestId('log-scroller');
    await expect(scroller.getByText(/^crash instance \d+$/)).toHaveCount(1);
    await expect(scroller.getByText('exiting', { exact: true })).toBeVisible();
    await screenshots(page, info, 'logs-previous');
    // an unknown container: the agent's 404 message is shown
    await gotoStable(page, `${stack.consoleUrl}/pods/default/${crash}/logs?container=ghost`);
    await expect(page.getByTestId('log-error')).toHaveText(`container "ghost" not found in pod "${crash}"`);
  });
});
