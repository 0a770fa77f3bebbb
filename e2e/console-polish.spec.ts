// Issue 16 items 6–8 in the console, on one stack: the chart window switch and separate rx / tx series, the process
// table's sort and kernel-thread toggle, the images page (the pod's image, the GC button disabled while a GC
// runs), the dark theme kept across a reload, no horizontal overflow at 375 px, the 404 page, and the offline
// banner when the agent stops (last: the agent stays down). Screenshots at 1280 and 375 px are attached.
import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gotoStable, signIn, startStack, waitUntil, type Stack } from './harness.ts';

let stack: Stack;
const podName = () => `web-${stack.nodeName}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  stack = await startStack({ nodeName: 'e2e-polish' });
  // busybox httpd serves 64 KiB that the kubelet's readiness probe fetches every second: the pod sends far more
  // than it receives, so its rx and tx series must differ.
  writeFileSync(join(stack.manifests, 'web.yaml'), `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: default
spec:
  volumes: [{ name: www, emptyDir: {} }]
  containers:
    - name: httpd
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", "head -c 65536 /dev/zero > /www/big && exec busybox httpd -f -p 8080 -h /www"]
      volumeMounts: [{ name: www, mountPath: /www }]
      readinessProbe:
        httpGet: { path: /big, port: 8080 }
        periodSeconds: 1
`);
});

test.afterAll(async () => {
  await stack?.stop();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, stack);
});

/** A full-page screenshot in the test's output folder, attached to the report. */
async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** The body's computed background colour (the e2e tsconfig has no DOM lib: reached through the element handle). */
const bodyBackground = (page: Page) => page.locator('body').evaluate((el) => (el.ownerDocument.defaultView as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);

const points = async (page: Page, id: string) => Number((await page.getByTestId(id).getAttribute('data-points')) ?? 0);

test('charts share one window (1 m / 10 m / 1 h) and the network chart has separate rx and tx', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await gotoStable(page, `${stack.consoleUrl}/containers/pods/default/${podName()}`);
  await expect(page.getByTestId('cadvisor-page')).toHaveAttribute('data-key', /pod/, { timeout: 90_000 });
  await expect.poll(() => points(page, 'chart-network'), { timeout: 90_000 }).toBeGreaterThan(4);
  const rx = page.getByTestId('chart-network').locator('path[data-series="rx"]');
  const tx = page.getByTestId('chart-network').locator('path[data-series="tx"]');
  await expect.poll(async () => (await rx.getAttribute('d')) !== (await tx.getAttribute('d')), { timeout: 30_000 }).toBe(true);

  const charts = page.locator('figure.chart');
  await expect(charts).toHaveCount(5); // cpu, per core, memory, network, filesystem
  for (const w of ['1m', '1h', '10m']) {
    await page.getByTestId(`chart-window-${w}`).click();
    for (const c of await charts.all()) await expect(c).toHaveAttribute('data-window', w);
  }
  await page.getByTestId('chart-window-1m').click();
  const ticks = await page.getByTestId('chart-cpu-time-tick').allTextContents();
  expect(ticks.length).toBeGreaterThanOrEqual(2);
  expect(new Set(ticks).size).toBe(ticks.length);
  // Round ticks: HH:MM:SS on multiples of one 5 / 10 / 15 / 30 s step.
  const secs = ticks.map((t) => t.split(':').map(Number).reduce((a, n) => a * 60 + n, 0));
  const step = secs[1]! - secs[0]!;
  expect([5, 10, 15, 30]).toContain(step);
  for (let i = 0; i < secs.length; i++) expect(secs[i]! % step === 0 && (i === 0 || secs[i]! - secs[i - 1]! === step)).toBe(true);
  await shot(page, info, 'pod-charts-1280');
});

test('the process table sorts by column and hides kernel threads unless asked', async ({ page }) => {
  await gotoStable(page, `${stack.consoleUrl}/containers`);
  const table = page.getByTestId('process-table');
  await expect(table.getByTestId('process-row').first()).toBeVisible({ timeout: 60_000 });
  await expect(table.locator('[data-kernel="true"]')).toHaveCount(0);
  await page.getByTestId('process-sort-pid').click();
  await expect(table).toHaveAttribute('data-sort', 'pid:asc');
  // kthreadd (pid 2) and its children sort near the top once shown.
  await page.getByTestId('process-kernel-toggle').check();
  await expect(table.locator('[data-kernel="true"]').first()).toBeVisible();
  const pids = async () => (await table.getByTestId('process-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-pid')))));
  const asc = await pids();
  expect(asc).toEqual([...asc].sort((a, b) => a - b));
  await page.getByTestId('process-sort-pid').click();
  await expect(table).toHaveAttribute('data-sort', 'pid:desc');
  const desc = await pids();
  expect(desc).toEqual([...desc].sort((a, b) => b - a));
  await expect(table.getByTestId('process-row').filter({ hasText: 'root' }).first()).toBeVisible();
});

test('the images page lists the pod\'s image; its GC button stays disabled while a GC runs and starts one', async ({ page }, info) => {
  await gotoStable(page, `${stack.consoleUrl}/images`);
  const row = page.getByTestId('image-row').filter({ hasText: `default/${podName()}` });
  await expect(row).toHaveAttribute('data-image', 'nodelet.local/host:latest', { timeout: 60_000 });
  await expect(row).toHaveAttribute('data-next-gc', 'keep');
  // Hold the GC's answer for a while: the run stays in flight, as a long GC would.
  let calls = 0;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/trpc/gc.images**', async (route) => {
    calls++;
    await held;
    await route.continue();
  });
  const button = page.getByTestId('images-gc-button');
  await button.dblclick();
  await expect(button).toBeDisabled();
  await button.click({ force: true });
  release();
  await expect(page.getByTestId('images-gc-result')).toBeVisible({ timeout: 30_000 });
  await expect(button).toBeEnabled();
  expect(calls).toBe(1);
  await shot(page, info, 'images-1280');
});

test('the dark theme is kept across a reload', async ({ page }) => {
  await gotoStable(page, stack.consoleUrl);
  const toggle = page.getByTestId('theme-toggle');
  await expect(toggle).not.toHaveAttribute('data-theme', '');
  if ((await toggle.getAttribute('data-theme')) === 'dark') await toggle.click();
  const lightBg = await bodyBackground(page);
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const darkBg = await bodyBackground(page);
  expect(darkBg).not.toBe(lightBg);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await bodyBackground(page)).toBe(darkBg);
});

test('at 375 px no page scrolls sideways (tables scroll in their own box)', async ({ page }, info) => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ['/', `/containers/pods/default/${podName()}`, '/images', '/gc']) {
    await gotoStable(page, `${stack.consoleUrl}${path}`);
    await expect(page.locator('main')).not.toBeEmpty();
    await page.waitForTimeout(1_500); // charts and tables fill in
    const width = await page.locator('html').evaluate((el) => el.scrollWidth);
    expect(width, `scrollWidth of ${path}`).toBeLessThanOrEqual(375);
    await shot(page, info, `375${path === '/' ? '-home' : path.replaceAll('/', '-')}`);
  }
});

test('an unknown path shows the styled 404 page', async ({ page }) => {
  const res = await gotoStable(page, `${stack.consoleUrl}/no/such/page`);
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId('not-found')).toContainText('This page does not exist');
  await expect(page.getByTestId('not-found').getByRole('link', { name: 'Node & pods' })).toBeVisible();
});

/** The stack's agent process (its --root-dir is this stack's), found in /proc: the harness has no stop for it alone. */
function agentPid(): number | undefined {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const args = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (args.some((a) => a.endsWith('apps/agent/src/main.ts')) && args[args.indexOf('--root-dir') + 1] === stack.rootDir) return Number(d);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

test('the offline banner shows the reconnect attempts when the agent stops', async ({ page }) => {
  await gotoStable(page, stack.consoleUrl);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  const pid = agentPid();
  expect(pid).toBeDefined();
  process.kill(pid!, 'SIGTERM');
  await waitUntil('the agent exited', () => agentPid() === undefined, 30_000);
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toContainText('Lost the connection to the agent', { timeout: 30_000 });
  await expect(banner).toContainText(/attempt \d+/, { timeout: 30_000 });
});
