// bench/js/chromium.mjs: headless Chromium for the browser benchmarks (browser_has.mjs, cold_start.mjs).
// Needs /usr/bin/chromium (or CHROMIUM_PATH) and the devDependencies (playwright-core).
import { createServer } from 'node:http';
import { withChromiumContext } from '../../scripts/chromium.mjs';

// Serves `files` ({ '/path': { type, body } }, anything else an empty page) on a loopback port, uncached,
// launches Chromium with a temporary profile (scripts/chromium.mjs) and returns await use(context, origin);
// then closes the browser and the server and removes the profile, whatever use() did.
export async function withChromium(files, use) {
  const server = createServer((req, res) => {
    const file = files[new URL(req.url, 'http://localhost').pathname] ?? { type: 'text/plain', body: '' };
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
    res.end(file.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await withChromiumContext((context) => use(context, `http://127.0.0.1:${server.address().port}`));
  } finally {
    server.close();
  }
}
