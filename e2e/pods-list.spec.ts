// Issue 16 items 2, 3 and the status colours: the pod list of an agent joined to the API server TEST DOUBLE, with
// a dozen labelled pods (two namespaces, one crash-looping): label-selector search with URL state, sort by
// restarts, keyboard j/k/Enter/Esc, the pod page's describe (container state, events) and YAML copy, and a pod
// deleted through the API shown Terminating with its grace countdown until the kubelet is done with it.
// Screenshots at 1280 px and 375 px are attached to the report. One stack for the whole file.
import { test, expect, type Page, type BrowserContext, type TestInfo } from '@playwright/test';
import { parse } from 'yaml';
import { startApiServerDouble, type ApiServerDouble } from '@nodelet/apiserver-double';
import { gotoStable, readOnlyPods, signIn, startStack, type Stack } from './harness.ts';

const NODE = 'e2e-pods';
let api: ApiServerDouble;
let stack: Stack;
let context: BrowserContext;
let page: Page;

// `trap '' TERM`: the container outlives SIGTERM, so a deleted pod takes its whole grace period to terminate.
const LOOP = "trap '' TERM; while true; do sleep 1; done";
const PODS: Array<{ ns: string; name: string; labels: Record<string, string>; script?: string }> = [
  { ns: 'default', name: 'web-1', labels: { app: 'web', tier: 'front' } },
  { ns: 'default', name: 'web-2', labels: { app: 'web', tier: 'db' } },
  { ns: 'default', name: 'web-3', labels: { app: 'web' } },
  { ns: 'default', name: 'api-1', labels: { app: 'api', tier: 'back', env: 'prod' } },
  { ns: 'default', name: 'api-2', labels: { app: 'api', env: 'dev' } },
  { ns: 'default', name: 'db-1', labels: { app: 'db', tier: 'db' } },
  { ns: 'default', name: 'cache-1', labels: { app: 'cache' } },
  { ns: 'default', name: 'job-1', labels: { team: 'data' } },
  { ns: 'default', name: 'crash-1', labels: { app: 'crash' }, script: 'echo bye; exit 1' },
  { ns: 'default', name: 'term-1', labels: { app: 'term' } },
  { ns: 'shop', name: 'cart-1', labels: { app: 'web', tier: 'front' } },
  { ns: 'shop', name: 'cart-2', labels: { app: 'cart', env: 'prod' } },
];

/** A full-page screenshot at `width` px, kept in the test's output folder and attached to the report. */
async function shot(testInfo: TestInfo, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const path = testInfo.outputPath(`${name}-${width}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(`${name}-${width}`, { path, contentType: 'image/png' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

const row = (ns: string, name: string) => page.getByTestId(`pod-row-${ns}-${name}`);
const visibleRows = () => page.locator('[data-testid="pods-table"] tbody tr[data-testid^="pod-row-"]');

test.describe.serial('pod list', () => {
  test.beforeAll(async ({ browser }) => {
    api = await startApiServerDouble();
    stack = await startStack({
      nodeName: NODE,
      extraAgentArgs: ['--kubeconfig', api.kubeconfigFor(NODE), '--node-ip', '127.0.0.1', '--authorization-mode', 'AlwaysAllow'],
    });
    api.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    for (const p of PODS) {
      api.store.create({
        apiVersion: 'v1', kind: 'Pod',
        metadata: { name: p.name, namespace: p.ns, labels: p.labels },
        spec: {
          nodeName: NODE, automountServiceAccountToken: false, terminationGracePeriodSeconds: 30,
          containers: [{ name: 'main', image: 'nodelet.local/host:latest', imagePullPolicy: 'Never', command: ['sh', '-c', p.script ?? LOOP] }],
        },
      });
    }
    context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    await signIn(page, stack);
  });

  test.afterAll(async () => {
    await context?.close();
    await stack?.stop();
    await api?.stop();
  });

  test('a label selector narrows the list, the view lives in the URL; screenshots at 1280 and 375 px', async ({}, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // Every pod's sandbox up first: its network interfaces appearing abort Chromium's navigations (ERR_NETWORK_CHANGED).
    await expect.poll(async () => (await readOnlyPods(stack)).filter((p) => (p.status as { podIP?: string } | undefined)?.podIP).length, { timeout: 150_000 }).toBe(PODS.length);
    await gotoStable(page, stack.consoleUrl);
    // Twelve pods start at once: on a loaded 2-core machine that takes a while.
    await expect(row('default', 'web-1')).toHaveAttribute('data-status', 'Running', { timeout: 150_000 });
    await expect(visibleRows()).toHaveCount(PODS.length);
    await expect(row('default', 'web-1').getByTestId('pod-phase-default-web-1')).toHaveAttribute('data-tone', 'ok');

    await page.getByTestId('pod-search').fill('app=web,tier!=db');
    await expect(visibleRows()).toHaveCount(3);
    for (const [ns, name] of [['default', 'web-1'], ['default', 'web-3'], ['shop', 'cart-1']]) await expect(row(ns!, name!)).toBeVisible();
    await expect(page).toHaveURL(/[?&]q=app%3Dweb%2Ctier%21%3Ddb/);
    // The URL is the view: opened afresh, it shows the same rows.
    await page.reload();
    await expect(page.getByTestId('pod-search')).toHaveValue('app=web,tier!=db');
    await expect(visibleRows()).toHaveCount(3);
    await page.getByTestId('pod-search').fill('env in (prod,dev');
    await expect(page.getByTestId('pod-search-error')).toContainText("unable to parse requirement");
    await page.getByTestId('pod-search').fill('env in (prod,dev)');
    await expect(visibleRows()).toHaveCount(3);
    await page.getByTestId('pod-namespace').selectOption('shop');
    await expect(visibleRows()).toHaveCount(1);
    await expect(page).toHaveURL(/ns=shop/);
    await shot(testInfo, 'pods-list', 1280);
    await shot(testInfo, 'pods-list', 375);
  });

  test('sort by restarts: the crash-looping pod first, counts never increasing', async () => {
    await gotoStable(page, stack.consoleUrl);
    await expect.poll(async () => Number(await row('default', 'crash-1').getAttribute('data-restarts')), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect(row('default', 'crash-1').getByTestId('pod-phase-default-crash-1')).toHaveAttribute('data-tone', 'bad');
    await page.getByTestId('sort-restarts').click();
    await page.getByTestId('sort-restarts').click();
    await expect(page).toHaveURL(/sort=restarts&dir=desc/);
    await expect(visibleRows().first()).toHaveAttribute('data-testid', 'pod-row-default-crash-1');
    const counts = (await visibleRows().evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-restarts')))));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  test('keyboard: / focuses the search, j/k select, Enter opens the pod, Esc comes back to the same view', async () => {
    await gotoStable(page, `${stack.consoleUrl}/?sort=name&dir=asc`);
    await expect(visibleRows()).toHaveCount(PODS.length);
    await page.keyboard.press('/');
    await expect(page.getByTestId('pod-search')).toBeFocused();
    await page.keyboard.type('web');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('pod-search')).not.toBeFocused();
    await expect(visibleRows()).toHaveCount(3); // web-1, web-2, web-3 (by name)
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await expect(row('default', 'web-2')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/pods\/default\/web-2$/);
    await expect(page.getByTestId('pod-detail')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/\?q=web&sort=name&dir=asc$/);
    await expect(visibleRows()).toHaveCount(3);
  });

  test('describe shows the container state and the events; the YAML is copied as the agent holds the pod', async ({}, testInfo) => {
    await gotoStable(page, `${stack.consoleUrl}/pods/default/web-1`);
    const describe = page.getByTestId('pod-describe');
    await expect(describe).toContainText(/^Name: +web-1$/m);
    await expect(describe).toContainText(/^Containers:\n {2}main:\n/m);
    await expect(describe).toContainText(/^ {4}State: +Running\n {6}Started: +\w{3}, /m);
    await expect(describe).toContainText(/^ {4}Ready: +True$/m);
    await expect(describe).toContainText(/^Events:\n {2}Type +Reason +Age +From +Message\n/m);
    await expect(describe).toContainText(/^ {2}Normal +Started +\S+ +kubelet +Started container main$/m);
    await shot(testInfo, 'pod-describe', 1280);

    await page.getByTestId('pod-view-yaml').click();
    await page.getByTestId('pod-copy').click();
    await expect(page.getByTestId('pod-copy-status')).toHaveText('Copied');
    const copied = parse(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())) as { metadata: { name: string; labels: Record<string, string>; uid: string }; status: { phase: string } };
    expect(copied.metadata.name).toBe('web-1');
    expect(copied.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(copied.metadata.uid).toBe(api.store.get('pods', 'default', 'web-1')?.metadata.uid);
    expect(copied.status.phase).toBe('Running');
    await shot(testInfo, 'pod-yaml', 375);
  });

  test('a pod deleted through the API stays Terminating with its grace countdown, then is gone', async () => {
    await gotoStable(page, stack.consoleUrl);
    // The victim: term-1, or (should the runtime have failed to start it) another pod that runs the same loop.
    const candidates = ['term-1', 'job-1', 'cache-1', 'api-2', 'web-3'];
    let victim = '';
    await expect.poll(async () => {
      for (const name of candidates) if ((await row('default', name).getAttribute('data-status')) === 'Running') return (victim = name);
      return '';
    }, { timeout: 60_000 }).not.toBe('');
    api.store.delete('pods', 'default', victim, { gracePeriodSeconds: 12 });
    await expect(row('default', victim)).toHaveAttribute('data-status', 'Terminating');
    await expect(row('default', victim).getByTestId(`pod-phase-default-${victim}`)).toHaveAttribute('data-tone', 'warn');
    const grace = page.getByTestId(`pod-grace-default-${victim}`);
    const first = Number((await grace.textContent())?.replace('s', ''));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(12);
    await expect.poll(async () => Number((await grace.textContent())?.replace('s', '')), { timeout: 10_000 }).toBeLessThan(first);
    await expect(row('default', victim)).toHaveCount(0, { timeout: 45_000 });
    expect(api.store.get('pods', 'default', victim)).toBeUndefined();
  });
});
