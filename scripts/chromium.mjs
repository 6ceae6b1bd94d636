// scripts/chromium.mjs: headless Chromium as the browser test (js-tests/browser.test.js) and the browser
// benchmarks (bench/js/chromium.mjs) launch it, through playwright-core (a devDependency).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The browser: /usr/bin/chromium, or CHROMIUM_PATH.
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Headless Chromium without a sandbox, GPU or background traffic. playwright's launch() gives every browser a
// fresh temporary --user-data-dir of its own (and refuses one in args); launchPersistentContext is used below
// to make that explicit and to remove the directory afterwards.
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// Launches Chromium with a temporary profile and returns await use(context) (a playwright BrowserContext);
// then closes the browser and removes the profile, whatever use() did. `timeout`: the most the launch may
// take, in ms (playwright's default if not given).
export async function withChromiumContext(use, { timeout } = {}) {
  const { chromium } = await import('playwright-core');
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'cuckoo-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      args: chromiumArgs,
      ...(timeout === undefined ? {} : { timeout }),
    });
    try {
      return await use(context);
    } finally {
      await context.close();
    }
  } finally {
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
