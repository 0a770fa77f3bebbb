import { defineConfig } from '@playwright/test';

// e2e drives Debian's chromium (no browser download): the agent and the console are started as real
// processes by e2e/harness.ts on free ports.
export default defineConfig({
  testDir: './e2e',
  testMatch: /.*\.spec\.ts$/,
  workers: 1,
  timeout: 180_000,
  expect: { timeout: 60_000 },
  reporter: [['list'], ['json']],
  use: {
    headless: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
