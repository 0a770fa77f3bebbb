// Dev helper: full-page screenshots of console pages with Debian chromium.
//   node apps/web/dev/screenshots.mjs <base-url> <prefix> /path[@waitMs][^click-testid][#testid] ...   (writes /tmp/shots/<prefix>-<path>.png)
// A base URL with ?token=… (as `npm start` prints it) signs in first.
import { mkdirSync } from "node:fs";
import { chromium } from '@playwright/test';
mkdirSync("/tmp/shots", { recursive: true });
const given = new URL(process.argv[2]);
const token = given.searchParams.get('token');
const base = given.origin;
const prefix = process.argv[3];
const pages = process.argv.slice(4);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
page.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
page.on('pageerror', (e) => console.log('page error:', e.message));
if (token) await page.goto(`${base}/?token=${encodeURIComponent(token)}`);
for (const p of pages) {
  // /path[@waitMs][^click-testid][#testid]: clicks a test id first (then waits 2 s); #testid shoots that element only.
  const [rest, testId] = p.split('#');
  const [beforeClick, click] = rest.split('^');
  const [path, wait] = beforeClick.split('@');
  await page.goto(base + path);
  await page.waitForTimeout(Number(wait ?? 5000));
  if (click) {
    await page.getByTestId(click).click();
    await page.waitForTimeout(2000);
  }
  const name = `${prefix}-${path.replace(/[^a-z0-9]+/gi, '_')}${testId ? `-${testId}` : ''}.png`;
  if (testId) await page.getByTestId(testId).first().screenshot({ path: `/tmp/shots/${name}` });
  else await page.screenshot({ path: `/tmp/shots/${name}`, fullPage: true });
  console.log('shot', name);
}
await browser.close();
