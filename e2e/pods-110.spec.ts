// Issue 16 item 9 ("an operator can find a pod by label in a list of 110"): the pod list with 110 pods stays
// usable — label-selector search, namespace filter, sort, keyboard — in Chromium. The pods come from the MOCK agent
// (apps/web/dev/mock-agent.ts --pods 110), not a real node: the list under test is the console's, the same code
// whichever agent feeds it (the mock's router is type-checked against the agent's), and 110 real pods would take
// minutes to start on a 2-core machine (the 12-pod real-node case is pods-list.spec.ts). The mock fills the node
// to 110 with pod-000…pod-104 (namespace by i % 3: default, shop, batch; app by i % 5: web, api, db, cache,
// worker; tier front for odd i, back for even; i % 7 restarts) beside its five own pods: the expected rows below
// follow from that rule. Also: the node page's certificates and graceful shutdown panels (#18 item 6) as the mock
// reports them, the shutdown followed live (the mock's simulated shutdown: regular pods killed two seconds apart,
// each counting down from the group's 20 s). One stack for the file.
import { test, expect, type Page, type BrowserContext, type TestInfo } from '@playwright/test';
import { gotoStable, signIn } from './harness.ts';
import { startMockStack, type MockStack } from './mock-stack.ts';

let stack: MockStack;
let context: BrowserContext;
let page: Page;

const rows = () => page.locator('[data-testid="pods-table"] tbody tr[data-testid^="pod-row-"]');
const row = (ns: string, name: string) => page.getByTestId(`pod-row-${ns}-${name}`);
const names = async () => rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-testid')!.replace(/^pod-row-/, '')));

/** A screenshot at `width` px (of `testId`'s element, else the viewport), attached to the report. */
async function shot(testInfo: TestInfo, name: string, width: number, testId?: string): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const path = testInfo.outputPath(`${name}-${width}.png`);
  await (testId ? page.getByTestId(testId).screenshot({ path }) : page.screenshot({ path }));
  await testInfo.attach(`${name}-${width}`, { path, contentType: 'image/png' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Time from a keystroke to the list showing `count` rows, as a report annotation (a figure, not an assertion). */
async function timed(testInfo: TestInfo, what: string, act: () => Promise<void>, count: number): Promise<void> {
  const t0 = Date.now();
  await act();
  await expect(rows()).toHaveCount(count);
  testInfo.annotations.push({ type: 'timing', description: `${what}: ${Date.now() - t0} ms to ${count} rows` });
}

test.describe.serial('pod list with 110 pods (mock agent)', () => {
  test.beforeAll(async ({ browser }) => {
    stack = await startMockStack({ pods: 110 });
    context = await browser.newContext();
    page = await context.newPage();
    await signIn(page, stack);
  });

  test.afterAll(async () => {
    await context?.close();
    await stack?.stop();
  });

  test('110 rows; a label selector and a namespace narrow them, the view in the URL', async ({}, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await gotoStable(page, stack.consoleUrl);
    await expect(rows()).toHaveCount(110);
    // app=web (i % 5 == 0) and tier=front (odd i): i = 5, 15, …, 95.
    await timed(testInfo, 'label selector', () => page.getByTestId('pod-search').fill('app=web,tier=front'), 10);
    expect((await names()).every((n) => /-pod-0\d5$/.test(n))).toBe(true);
    await page.getByTestId('pod-namespace').selectOption('shop');
    // …of those, namespace shop (i % 3 == 1): 25, 55, 85.
    await expect(rows()).toHaveCount(3);
    expect((await names()).sort()).toEqual(['shop-pod-025', 'shop-pod-055', 'shop-pod-085']);
    await expect(page).toHaveURL(/[?&]q=app%3Dweb%2Ctier%3Dfront/);
    await expect(page).toHaveURL(/[?&]ns=shop/);
    await page.reload();
    await expect(rows()).toHaveCount(3);
    await page.getByTestId('pod-namespace').selectOption('');
    // app in (db,cache) (i % 5 ∈ {2, 3}) and tier!=front (even i): i % 10 ∈ {2, 8}: 11 + 10.
    await timed(testInfo, 'set-based selector', () => page.getByTestId('pod-search').fill('app in (db,cache),tier!=front'), 21);
    await timed(testInfo, 'clear', () => page.getByTestId('pod-search').fill(''), 110);
    await shot(testInfo, 'pods-110', 1280);
    await shot(testInfo, 'pods-110', 375);
  });

  test('sort by restarts: 6 first, never increasing down 110 rows', async () => {
    await gotoStable(page, `${stack.consoleUrl}/?sort=restarts&dir=desc`);
    await expect(rows()).toHaveCount(110);
    const counts = await rows().evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-restarts'))));
    expect(counts[0]).toBe(6);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  test('keyboard: / search, j/k through the rows, Enter opens the pod, Esc comes back', async () => {
    await gotoStable(page, `${stack.consoleUrl}/?sort=name&dir=asc`);
    await expect(rows()).toHaveCount(110);
    await page.keyboard.press('/');
    await expect(page.getByTestId('pod-search')).toBeFocused();
    await page.keyboard.type('pod-10');
    await page.keyboard.press('Escape');
    await expect(rows()).toHaveCount(5); // pod-100 … pod-104
    for (const key of ['j', 'j', 'j', 'k']) await page.keyboard.press(key);
    await expect(row('batch', 'pod-101')).toHaveAttribute('aria-selected', 'true'); // 101 % 3 == 2
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/pods\/batch\/pod-101$/);
    await expect(page.getByTestId('pod-detail')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/\?q=pod-10&sort=name&dir=asc$/);
    await expect(rows()).toHaveCount(5);
  });

  test('node page: certificates (client rotating, serving self-signed); a graceful shutdown followed live', async ({}, testInfo) => {
    await gotoStable(page, stack.consoleUrl);
    await expect(page.getByTestId('certificate-client')).toHaveAttribute('data-tone', 'ok');
    await expect(page.getByTestId('certificate-client')).toContainText('O=system:nodes, CN=system:node:mock-node-1');
    await expect(page.getByTestId('certificate-rotates-client')).toContainText(/^in \d+m|^in \d+s/);
    await expect(page.getByTestId('certificate-rotates-serving')).toHaveText('never (not rotated)');
    await expect(page.getByTestId('shutdown-state')).toHaveAttribute('data-phase', 'idle');
    await expect(page.getByTestId('shutdown-headline')).toHaveText('Graceful shutdown armed: regular pods 20 s, critical pods 10 s');

    expect((await fetch(`${stack.agentUrl}/mock/shutdown`, { method: 'POST', headers: { authorization: `Bearer ${stack.token}` } })).status).toBe(202);
    // Pushed over socket.io (the panel polls only every 30 s).
    await expect(page.getByTestId('shutdown-state')).toHaveAttribute('data-phase', 'shuttingDown', { timeout: 10_000 });
    await expect(page.getByTestId('shutdown-group-0')).toHaveAttribute('data-state', 'running');
    await expect(page.getByTestId('shutdown-group-2000000000')).toHaveAttribute('data-state', 'pending');
    await expect(page.getByTestId('shutdown-pod-default-web')).toHaveAttribute('data-state', 'terminated', { timeout: 10_000 });
    const left = page.getByTestId('shutdown-pod-left-shop-pod-100');
    const first = Number((await left.textContent())?.replace('s', ''));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(20);
    await expect.poll(async () => Number((await left.textContent())?.replace('s', '')), { timeout: 5_000 }).toBeLessThan(first);
    await expect(page.getByTestId('shutdown-headline')).toHaveText(/^Node is shutting down: \d+ pods terminating$/);
    await shot(testInfo, 'certificates', 1280, 'certificates-panel');
    await shot(testInfo, 'shutdown-live', 1280, 'shutdown-panel');
    await shot(testInfo, 'shutdown-live', 375, 'shutdown-panel');
  });
});
