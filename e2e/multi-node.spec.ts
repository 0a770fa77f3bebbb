// Issue 6 in the console: one console pointed at two agents (NODELET_AGENTS). Agent "b" is joined to the API
// server TEST DOUBLE (@nodelet/apiserver-double), so its row and page show the cluster identity; agent "a"
// (the console's default agent) is standalone. The /nodes page lists both nodes live and links to each agent's view.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { startApiServerDouble, type ApiServerDouble } from '@nodelet/apiserver-double';
import { staticPodYaml } from '@nodelet/agent/testing';
import { gotoStable, signIn, startStack, type Stack } from './harness.ts';

let api: ApiServerDouble;
let a: Stack;
let b: Stack;

test.beforeAll(async () => {
  api = await startApiServerDouble();
  const kubeconfig = api.kubeconfigFor('e2e-multi-b');
  b = await startStack({
    nodeName: 'e2e-multi-b',
    withConsole: false,
    extraAgentArgs: ['--kubeconfig', kubeconfig, '--node-ip', '127.0.0.1', '--authorization-mode', 'AlwaysAllow'],
  });
  // One console over both agents: they share one console token (the one b created), so the signed-in user's token
  // is accepted by each agent the console forwards it to.
  a = await startStack({
    nodeName: 'e2e-multi-a',
    consoleTokenFile: join(b.rootDir, 'console.token'),
    consoleAgents: [{ name: 'b', url: `https://127.0.0.1:${b.ports.kubelet}`, pkiDir: join(b.rootDir, 'pki') }],
  });
  writeFileSync(join(b.manifests, 'web.yaml'), staticPodYaml('web'));
});

test.afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await api?.stop();
});

// Each test's browser context signs in with the token URL, as after `npm start`.
test.beforeEach(async ({ page }) => {
  await signIn(page, a);
});

test('/nodes lists both agents\' nodes, live, with the cluster identity of the joined one', async ({ page }) => {
  await gotoStable(page, `${a.consoleUrl}/nodes`);
  const table = page.getByTestId('nodes-table');
  const rowA = table.getByTestId('node-row-e2e-multi-a');
  const rowB = table.getByTestId('node-row-e2e-multi-b');
  await expect(rowA).toHaveAttribute('data-ready', 'true');
  await expect(rowA).toHaveAttribute('data-agent', 'default');
  await expect(rowA.getByTestId('node-cluster-e2e-multi-a')).toHaveText('standalone');
  await expect(rowB).toHaveAttribute('data-ready', 'true');
  await expect(rowB).toHaveAttribute('data-agent', 'b');
  await expect(rowB.getByTestId('node-cluster-e2e-multi-b')).toContainText(`registered at ${api.url}`);
  // Live: the static pod written after the page loaded shows up in b's pod count.
  await expect(rowB.getByTestId('node-pods-e2e-multi-b')).toHaveText('1');
  await expect(rowA.getByTestId('node-pods-e2e-multi-a')).toHaveText('0');
});

test('a row links to that agent\'s view: node, cluster membership and pods', async ({ page }) => {
  await gotoStable(page, `${a.consoleUrl}/nodes`);
  await page.getByTestId('node-row-e2e-multi-b').getByRole('link', { name: 'e2e-multi-b' }).click();
  await expect(page).toHaveURL(/\/agents\/b$/);
  await expect(page.getByTestId('node-overview-name')).toHaveText('e2e-multi-b');
  await expect(page.getByTestId('cluster-server')).toHaveText(api.url);
  await expect(page.getByTestId('cluster-registered')).toHaveAttribute('data-registered', 'true');
  const uid = api.store.get('nodes', '', 'e2e-multi-b')?.metadata.uid;
  expect(uid).toBeTruthy();
  await expect(page.getByTestId('cluster-node-uid')).toHaveText(String(uid));
  await expect(page.getByTestId('cluster-lease')).toHaveText(/ago$/);
  await expect(page.getByTestId('agent-pod-web-e2e-multi-b')).toHaveAttribute('data-phase', 'Running');
});

test('the default agent\'s pages are unchanged: its home page has no cluster panel', async ({ page }) => {
  await gotoStable(page, a.consoleUrl);
  await expect(page.getByTestId('node-overview-name')).toHaveText('e2e-multi-a');
  await expect(page.getByTestId('cluster-panel')).toHaveCount(0);
});

test('an API server outage shows as the last error (row and Cluster panel) and clears when it is back', async ({ page }) => {
  await gotoStable(page, `${a.consoleUrl}/agents/b`);
  const lastError = page.getByTestId('cluster-last-error');
  await expect(lastError).toHaveAttribute('data-error', 'false');
  await api.pause();
  try {
    await expect(lastError).toHaveAttribute('data-error', 'true');
    await expect(lastError).toContainText(/ECONN|socket hang up|ConnectionError/);
    await expect(page.getByTestId('node-overview-name')).toHaveText('e2e-multi-b');
    await gotoStable(page, `${a.consoleUrl}/nodes`);
    await expect(page.getByTestId('node-row-e2e-multi-b')).toHaveAttribute('data-reachable', 'true');
    await expect(page.getByTestId('node-cluster-e2e-multi-b')).toContainText('error');
  } finally {
    await api.resume();
  }
  await gotoStable(page, `${a.consoleUrl}/agents/b`);
  await expect(lastError).toHaveAttribute('data-error', 'false');
  await expect(page.getByTestId('health-check-apiserver')).toHaveAttribute('data-ok', 'true');
});
