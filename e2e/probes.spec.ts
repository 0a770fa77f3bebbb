// Issue 4 in the console: a pod whose readiness probe fails, then succeeds; the pod page shows the probe's
// state, its timeline of results and the failure message, live.
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, gotoStable, signIn, startStack, type Stack } from './harness.ts';

let stack: Stack;

test.beforeAll(async () => {
  stack = await startStack({ nodeName: 'e2e-probes' });
});

test.afterAll(async () => {
  await stack?.stop();
});

// Each test's browser context signs in with the token URL, as after `npm start`.
test.beforeEach(async ({ page }) => {
  await signIn(page, stack);
});

// The container listens on `port` only after 15 s: the tcp readiness probe fails until then.
function manifest(port: number): string {
  const listen = `require('net').createServer((s) => s.end()).listen(${port}, '0.0.0.0')`;
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'probe-flip', namespace: 'default' },
    spec: {
      hostNetwork: true,
      containers: [{
        name: 'main',
        image: 'nodelet.local/host:latest',
        imagePullPolicy: 'Never',
        command: ['sh', '-c', `sleep 15; exec node -e "${listen}"`],
        readinessProbe: { tcpSocket: { port }, periodSeconds: 1, failureThreshold: 1 },
        livenessProbe: { exec: { command: ['true'] }, periodSeconds: 2 },
      }],
    },
  });
}

test('a readiness probe that fails then succeeds flips live on the pod page, with its timeline and failure message', async ({ page }) => {
  const port = await freePort();
  const podName = `probe-flip-${stack.nodeName}`;
  writeFileSync(join(stack.manifests, 'probe-flip.json'), manifest(port));
  await gotoStable(page, `${stack.consoleUrl}/pods/default/${podName}`);
  await expect(page.getByTestId('connection-status')).toHaveText(/live/i);

  const readiness = page.getByTestId('probe-main-readiness');
  const timeline = page.getByTestId('probe-timeline-main-readiness');
  await expect(readiness).toHaveAttribute('data-result', 'failure');
  await expect(timeline.locator('rect.tick[data-result="failure"]').first()).toBeAttached();
  await expect(page.getByTestId('probe-failures-main-readiness')).toContainText(/refused|connect|dial/i);
  await expect(page.getByTestId('condition-Ready')).toHaveAttribute('data-status', 'False');

  // The container starts listening: the probe succeeds and the pod turns Ready, without a reload.
  await expect(readiness).toHaveAttribute('data-result', 'success');
  await expect(timeline.locator('rect.tick[data-result="success"]').first()).toBeAttached();
  await expect(page.getByTestId('condition-Ready')).toHaveAttribute('data-status', 'True');

  // The liveness probe is listed with its thresholds and a successful state.
  const liveness = page.getByTestId('probe-main-liveness');
  await expect(liveness).toHaveAttribute('data-result', 'success');
  await expect(liveness).toContainText('period 2s');
});
