// bench/js/chromium.mjs: headless Chromium for the browser benchmarks (browser_has.mjs, cold_start.mjs).
// Needs /usr/bin/chromium (or CHROMIUM_PATH) and the devDependencies (playwright-core).
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Serves `files` ({ '/path': { type, body } }, anything else an empty page) on a loopback port, uncached,
// launches Chromium with a temporary profile and returns await use(context, origin); then closes the
// browser and the server and removes the profile, whatever use() did.
export async function withChromium(files, use) {
  const { chromium } = await import('playwright-core');
  const server = createServer((req, res) => {
    const file = files[new URL(req.url, 'http://localhost').pathname] ?? { type: 'text/plain', body: '' };
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
    res.end(file.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'cuckoo-bench-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      return await use(context, `http://127.0.0.1:${server.address().port}`);
    } finally {
      await context.close();
    }
  } finally {
    server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
