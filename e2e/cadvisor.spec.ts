// Issue 5 in the console: the cAdvisor-style pages show a running container's gauges, charts with data,
// processes and subcontainers; the cAdvisor REST API is reachable through the console.
import { test, expect, type Locator } from '@playwright/test';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gotoStable, signIn, startStack, type Stack } from './harness.ts';

let stack: Stack;

test.beforeAll(async () => {
  stack = await startStack({ nodeName: 'e2e-cadvisor' });
  writeFileSync(join(stack.manifests, 'burner.yaml'), `apiVersion: v1
kind: Pod
metadata:
  name: burner
  namespace: default
spec:
  containers:
    - name: burn
      image: nodelet.local/host:latest
      imagePullPolicy: Never
      command: ["sh", "-c", "while true; do i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; sleep 0.1; done"]
`);
});

test.afterAll(async () => {
  await stack?.stop();
});

// Each test's browser context signs in with the token URL, as after `npm start`.
test.beforeEach(async ({ page }) => {
  await signIn(page, stack);
});

async function points(l: Locator): Promise<number> {
  return Number((await l.getAttribute('data-points')) ?? 0);
}

/** cgroup v1's per-CPU accounting on this host (else containers' per-core chart says why it is missing). */
const perCpuV1 = existsSync('/sys/fs/cgroup/cpuacct/cpuacct.usage_percpu');

/** A per-core chart: one line and one legend entry per core, and it keeps receiving points (live). */
async function expectPerCore(chart: Locator, cores: number): Promise<void> {
  await expect.poll(() => points(chart), { timeout: 90_000 }).toBeGreaterThan(cores);
  for (let i = 0; i < cores; i++) await expect(chart.getByTestId(new RegExp(`-legend-cpu${i}$`))).toBeVisible();
  await expect(chart.getByTestId(new RegExp(`-legend-cpu${cores}$`))).toHaveCount(0);
  await expect(chart.locator('path[data-series^="cpu"]')).toHaveCount(cores);
  const before = await points(chart);
  await expect.poll(() => points(chart), { timeout: 60_000 }).not.toBe(before);
}

test('the pod page shows gauges, charts with data (per core too), subcontainers and processes, live', async ({ page }) => {
  const podName = `burner-${stack.nodeName}`;
  await gotoStable(page, `${stack.consoleUrl}/containers/pods/default/${podName}`);
  const root = page.getByTestId('cadvisor-page');
  await expect(root).toHaveAttribute('data-key', /pod/, { timeout: 90_000 });
  await expect(page.getByTestId('gauge-cpu')).toBeVisible();
  await expect(page.getByTestId('gauge-memory')).not.toHaveAttribute('data-fraction', '');
  await expect.poll(() => points(page.getByTestId('chart-cpu')), { timeout: 90_000 }).toBeGreaterThan(1);
  await expect.poll(() => points(page.getByTestId('chart-memory'))).toBeGreaterThan(1);
  await expect(page.getByTestId('chart-network')).toBeVisible();
  await expect(page.getByTestId('stats-live')).toHaveText('live', { timeout: 90_000 });

  // The pod's container is a subcontainer; its page has its own charts and its processes.
  const sub = page.getByTestId('subcontainers').getByRole('link', { name: /burn/ });
  await expect(sub).toBeVisible();
  await sub.click();
  await expect(page.getByTestId('cadvisor-kind')).toHaveText('container');
  await expect.poll(() => points(page.getByTestId('chart-memory')), { timeout: 90_000 }).toBeGreaterThan(1);
  await expect(page.getByTestId('process-table').getByTestId('process-row').filter({ hasText: 'sh -c' }).first()).toBeVisible();
  const cores = ((await (await page.request.get(`${stack.consoleUrl}/api/v1.3/machine`)).json()) as { num_cores: number }).num_cores;
  const perCore = page.getByTestId('chart-cpu-per-core');
  if (perCpuV1) await expectPerCore(perCore, cores);
  else await expect(perCore).toContainText('per-core usage unavailable', { timeout: 90_000 });
});

test('the node page shows the machine and the cAdvisor REST API answers through the console', async ({ page }) => {
  await gotoStable(page, `${stack.consoleUrl}/containers`);
  await expect(page.getByTestId('machine-overview')).toBeVisible();
  await expect(page.getByTestId('machine-cores')).toHaveText(/\d/);
  await expect(page.getByTestId('subcontainers').getByTestId('subcontainer-row').first()).toBeVisible();
  await expect.poll(() => points(page.getByTestId('chart-cpu')), { timeout: 90_000 }).toBeGreaterThan(1);

  const r = await page.request.get(`${stack.consoleUrl}/api/v1.3/machine`);
  expect(r.status()).toBe(200);
  const body = (await r.json()) as { num_cores?: number };
  expect(body.num_cores).toBeGreaterThan(0);
  // The machine overview charts the node's CPU per core (root cgroup per-CPU usage, or /proc/stat on v2).
  await expectPerCore(page.getByTestId('machine-overview').getByTestId('machine-per-core'), body.num_cores ?? 0);
  await expect(page.getByTestId('chart-cpu-per-core')).toHaveCount(0);
});
