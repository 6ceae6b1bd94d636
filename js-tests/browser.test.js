// js-tests/browser.test.js: the package in a real browser. A tiny static server (node:http on 127.0.0.1:0)
// serves the repo's js/, dist/ and testdata/ plus js-tests/fixtures/browser/index.html; headless Chromium
// (/usr/bin/chromium, driven by playwright-core) opens the page, whose plain <script type="module"> (no
// import map, no bundler) imports /js/index.js, fetches golden filters written by the native build,
// deserializes them and reports every answer through window.__result. This file asserts each answer, the
// page's re-serialized and rebuilt bytes against the golden bytes, and that the page ran with no errors
// and fetched nothing but the package's own ES modules and the test data (so the browser path pulls in no
// Node built-in: `import 'node:fs'` or a bare specifier would fail to resolve and show up as an error).
// The page is served under a strict Content-Security-Policy (its inline script allowed by hash, wasm by
// 'wasm-unsafe-eval', fetches to its own origin only), so a violation, which Chromium logs as a console
// error, fails the test: the package must load the way a locked-down site would serve it.
// A second test loads an esbuild bundle of the package (platform browser) the same way.
//
// Without /usr/bin/chromium the test is skipped with the reason, unless CI is set: in CI it fails.
// CHROMIUM_PATH overrides the browser path. The launch and its flags: scripts/chromium.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath, withChromiumContext } from '../scripts/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pagePath = path.join(root, 'js-tests', 'fixtures', 'browser', 'index.html');
const goldenDir = path.join(root, 'testdata', 'golden');
const inCI = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

// Every golden file: they are small (the largest is 576 bytes) and the page checks them all in well under
// a second.
const sidecars = existsSync(goldenDir)
  ? readdirSync(goldenDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

// What a site that allows WebAssembly and nothing else would send; inline <script>s are allowed by hash.
function strictCsp(html) {
  const code = html.replace(/<!--[\s\S]*?-->/g, '');
  const hashes = [...code.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
  return `default-src 'none'; script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}; connect-src 'self'; img-src data:`;
}

const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.bin': 'application/octet-stream',
};
const servedRoots = ['/js/', '/dist/', '/testdata/'];

// Serves / (the page) and files under js/, dist/, testdata/; records every request.
// `extra` maps more paths to { type, body } served from memory.
function startServer(extra = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let status = 404;
    let file = null;
    const pathname = decodeURIComponent(url.pathname);
    if (Object.hasOwn(extra, pathname)) {
      const { type, body } = extra[pathname];
      const headers = { 'content-type': type, 'cache-control': 'no-store' };
      if (type.startsWith('text/html')) headers['content-security-policy'] = strictCsp(String(body));
      res.writeHead(200, headers);
      res.end(body);
      requests.push({ path: pathname, status: 200, body: null });
      return;
    }
    if (pathname === '/' || pathname === '/index.html') {
      file = pagePath;
    } else if (servedRoots.some((r) => pathname.startsWith(r)) && !pathname.split('/').includes('..')) {
      const candidate = path.join(root, pathname);
      if (candidate.startsWith(root + path.sep) && existsSync(candidate) && statSync(candidate).isFile()) {
        file = candidate;
      }
    }
    if (file !== null && req.method === 'GET') {
      status = 200;
      const body = readFileSync(file);
      const headers = {
        'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
      };
      if (file === pagePath) headers['content-security-policy'] = strictCsp(body.toString('utf8'));
      res.writeHead(200, headers);
      res.end(body);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
    requests.push({ path: pathname, status, body: file });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, requests, port: server.address().port }));
  });
}

// A Node built-in on the browser path, spelled as an import or a require.
const nodeBuiltinImport =
  /\bfrom\s*['"]node:|\bimport\s*\(\s*['"]node:|\brequire\s*\(\s*['"](?:node:)?(?:fs|path|url|os|crypto|module|child_process|worker_threads|buffer|util)['"]/;

// Skips the test (fails it under CI) when Chromium is not installed; returns whether it may run.
function chromiumAvailable(t) {
  if (existsSync(chromiumPath)) return true;
  const reason = `no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (inCI) assert.fail(`${reason}; CI is set, so the browser test must run`);
  t.skip(reason);
  return false;
}

// Serves the repo (plus `extra` paths) on localhost, opens headless Chromium with a profile of its own,
// and runs body({ page, requests, port }); closes the browser and the server and removes the profile after.
async function withChromium(extra, body) {
  const { server, requests, port } = await startServer(extra);
  try {
    await withChromiumContext(
      async (context) => {
        const page = context.pages()[0] ?? (await context.newPage());
        await body({ page, requests, port });
      },
      { timeout: 20_000 },
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

test('browser: headless Chromium loads the package from <script type="module"> and reads native golden filters', async (t) => {
  if (!chromiumAvailable(t)) return;
  assert.ok(existsSync(path.join(root, 'dist', 'cuckoo_wasm_binary.mjs')), 'dist/cuckoo_wasm_binary.mjs is missing: run `npm run build` first');
  assert.ok(sidecars.length > 0, `no golden sidecars in ${goldenDir}`);

  await withChromium({}, async ({ page, requests, port }) => {
    // Errors end the wait at once (a module that fails to load never sets window.__result).
    const errors = [];
    let onError;
    const firstError = new Promise((resolve) => (onError = resolve));
    const error = (text) => {
      errors.push(text);
      onError();
    };
    page.on('pageerror', (e) => error(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') error(`console.error: ${m.text()}`);
    });
    // Chromium may report a fetch whose body the page streamed to its end (deserialize(Response)) as
    // ERR_ABORTED after the fact; an abort that lost bytes fails that deserialize() in the page instead,
    // and the streamed filter is compared with the golden bytes below.
    page.on('requestfailed', (r) => {
      const streamedGolden = r.failure()?.errorText === 'net::ERR_ABORTED' && /\/testdata\/golden\/[\w.-]+\.bin$/.test(r.url());
      if (!streamedGolden) error(`request failed: ${r.url()} (${r.failure()?.errorText})`);
    });
    const origins = new Set();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));

    const origin = `http://127.0.0.1:${port}`;
    await page.goto(`${origin}/?golden=${sidecars.map(encodeURIComponent).join(',')}`, { timeout: 10_000 });
    await Promise.race([
      page.waitForFunction(() => window.__result?.done === true, null, { timeout: 20_000 }),
      // Give the page a moment to report the rest of what went wrong.
      firstError.then(() => new Promise((resolve) => setTimeout(resolve, 500))),
    ]);
    const result = await page.evaluate(() => window.__result ?? null);
    assert.ok(result !== null, `the page did not finish:\n${errors.join('\n')}`);
    t.diagnostic(`user agent: ${result.userAgent}`);

    // The page ran to the end, with no error anywhere, without an import map, from our origin only.
    assert.equal(result.error, null, `the page threw: ${result.error}`);
    assert.deepEqual(errors, [], 'errors in the page');
    assert.equal(await page.evaluate(() => document.querySelector('script[type="importmap"]')), null);
    assert.deepEqual([...origins], [origin], 'the page fetched from another origin');
    const notFound = requests.filter((r) => r.status !== 200).map((r) => r.path);
    // Chromium may ask for /favicon.ico on its own; nothing else may be missing.
    assert.deepEqual(
      notFound.filter((p) => p !== '/favicon.ico'),
      [],
      'requests the server could not answer',
    );

    // The browser path is the package's ESM files and the embedded web module: no CJS, no Node built-in.
    const scripts = requests.filter((r) => /\.(m?js)$/.test(r.path) && r.status === 200);
    const scriptPaths = scripts.map((r) => r.path).sort();
    t.diagnostic(`modules the page loaded: ${scriptPaths.join(' ')}`);
    assert.ok(scriptPaths.includes('/js/index.js') && scriptPaths.includes('/dist/cuckoo_wasm_binary.mjs'), scriptPaths.join());
    for (const s of scriptPaths) assert.ok(!s.endsWith('.cjs'), `the page loaded CommonJS ${s}`);
    for (const s of scripts) {
      assert.doesNotMatch(readFileSync(s.body, 'utf8'), nodeBuiltinImport, `${s.path} imports a Node built-in`);
    }
    assert.deepEqual(result.api.env, {
      Buffer: 'undefined',
      process: 'undefined',
      require: 'undefined',
      __dirname: 'undefined',
    });

    // Every golden file: the page's answers for every key, and its bytes.
    assert.equal(result.golden.length, sidecars.length);
    for (const got of result.golden) {
      const meta = JSON.parse(readFileSync(path.join(goldenDir, got.name), 'utf8'));
      const golden = [...readFileSync(path.join(goldenDir, meta.file))];
      const where = meta.file;
      assert.deepEqual(got.fetchedBytes, golden, `${where}: the page fetched other bytes than the file`);
      assert.deepEqual(got.streamedBytes, golden, `${where}: deserialize(Response) gave another filter`);
      // A growing filter's (format version 2) bucketCount counts every level, its option only the first;
      // its sidecar may size it by capacity or fpr instead of giving every shape field.
      const o = meta.options;
      const growable = o.growable === true;
      assert.deepEqual(
        got.props,
        {
          size: meta.size,
          isFull: meta.isFull,
          bucketCount: growable ? got.props.bucketCount : o.bucketCount,
          bucketSize: o.bucketSize ?? got.props.bucketSize,
          fingerprintBits: o.fingerprintBits ?? got.props.fingerprintBits,
          semiSort: o.semiSort ?? got.props.semiSort,
          maxKicks: o.maxKicks ?? got.props.maxKicks,
          seed: String(o.seed ?? got.props.seed),
          seedType: 'bigint',
          byteLength: meta.fileBytes,
          growable,
          levels: meta.levels ?? (growable ? got.props.levels : 1),
        },
        `${where}: properties`,
      );
      assert.equal(got.presentHas.length, meta.present.length);
      assert.equal(got.absentHas.length, meta.absent.length);
      meta.present.forEach((k, i) => {
        assert.equal(got.presentHas[i], true, `${where}: has(${JSON.stringify(k)}) must be true`);
        assert.equal(got.presentMany[i], 1, `${where}: hasMany [${JSON.stringify(k)}] must be 1`);
        assert.equal(got.presentAsBytes[i], true, `${where}: ${JSON.stringify(k)} as bytes must be found`);
        assert.equal(got.syncPresentMany[i], 1, `${where}: deserializeSync hasMany [${JSON.stringify(k)}]`);
        assert.equal(got.rebuiltAdds[i], true, `${where}: add(${JSON.stringify(k)}) in the page`);
        if (meta.intKeys && BigInt(k) <= BigInt(Number.MAX_SAFE_INTEGER)) {
          assert.equal(got.presentAsNumber[i], true, `${where}: has(${k}) as a number must be true`);
        }
      });
      meta.absent.forEach((k, i) => {
        assert.equal(got.absentHas[i], false, `${where}: has(${JSON.stringify(k)}) must be false`);
        assert.equal(got.absentMany[i], 0, `${where}: hasMany [${JSON.stringify(k)}] must be 0`);
      });
      assert.deepEqual(got.reserialized, golden, `${where}: serialize() in the page differs from the native bytes`);
      assert.deepEqual(got.rebuilt, golden, `${where}: the filter rebuilt in the page differs from the native bytes`);
    }

    // The rest of the API in the page.
    const api = result.api;
    assert.deepEqual(api.adds, Array(8).fill(true));
    assert.deepEqual(api.has, Array(8).fill(true));
    assert.equal(api.sameKeyAsBytes, true);
    assert.equal(api.sameIntAsBigint, true);
    assert.equal(api.addAll, 1000);
    assert.equal(api.hasManyAll, true);
    assert.equal(api.size, 1008);
    assert.ok(api.countBefore >= 1);
    assert.equal(api.deleted, true);
    assert.equal(api.countAfter, api.countBefore - 1);
    assert.equal(api.capacityOk, true);
    assert.equal(api.loadFactorOk, true);
    assert.equal(api.bitsPerItemOk, true);
    assert.ok(api.fprBound > 0 && api.fprBound <= 0.001, `fprBound ${api.fprBound}`);
    assert.equal(api.bytesIsUint8Array, true);
    assert.equal(api.copySize, 1007);
    assert.deepEqual(api.copyHas, Array(7).fill(true));
    assert.equal(api.copyBytesEqual, true);
    assert.equal(api.disposed, true);
    assert.match(api.afterDispose, /disposed/);
    assert.match(api.badOption, /^RangeError: .*bucketSize/);
    assert.match(api.badBytes, /^FormatError: cuckoo: /);
    assert.equal(api.badKey, 'TypeError');
  });
});

// From a bundler, in the browser: esbuild (a devDependency) bundles a page script that imports js/index.js,
// for the browser platform (a Node built-in import would be a build error), into one file served from
// memory; the page loads only that bundle and a golden file, and checks its keys.
test('browser: an esbuild bundle of the package runs in headless Chromium', async (t) => {
  if (!chromiumAvailable(t)) return;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (e) {
    const reason = `esbuild is not installed (npm ci): ${e.message}`;
    if (inCI) assert.fail(reason);
    t.skip(reason);
    return;
  }
  const name = 'b8_f16_strings.json';
  const meta = JSON.parse(readFileSync(path.join(goldenDir, name), 'utf8'));
  const entry = `
import { CuckooFilter } from './js/index.js';
try {
  const meta = await (await fetch('/testdata/golden/${name}')).json();
  const bytes = new Uint8Array(await (await fetch('/testdata/golden/' + meta.file)).arrayBuffer());
  const f = await CuckooFilter.deserialize(bytes);
  const result = {
    present: meta.present.map((k) => f.has(k)),
    absent: meta.absent.map((k) => f.has(k)),
    reserialized: Array.from(f.serialize()),
  };
  f.dispose();
  window.__result = { done: true, error: null, ...result };
} catch (e) {
  window.__result = { done: true, error: String(e && e.stack) };
}
`;
  const built = await esbuild.build({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'bundle-entry.js', loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  assert.deepEqual(
    built.warnings.map((w) => w.text),
    [],
    'esbuild warnings',
  );
  const bundle = built.outputFiles[0].text;
  assert.doesNotMatch(bundle, nodeBuiltinImport);
  const html = '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/bundle.js"></script>';
  const pages = {
    '/bundle.html': { type: 'text/html; charset=utf-8', body: html },
    '/bundle.js': { type: 'text/javascript; charset=utf-8', body: bundle },
  };
  await withChromium(pages, async ({ page, requests, port }) => {
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
    });
    await page.goto(`http://127.0.0.1:${port}/bundle.html`, { timeout: 10_000 });
    await page
      .waitForFunction(() => window.__result?.done === true, null, { timeout: 15_000 })
      .catch((e) => assert.fail(`the bundled page did not finish: ${e.message}\n${errors.join('\n')}`));
    const result = await page.evaluate(() => window.__result);
    assert.equal(result.error, null);
    assert.deepEqual(errors, []);
    // One script, the bundle: nothing fetched from js/ or dist/.
    const paths = requests.map((r) => r.path).filter((p) => p !== '/favicon.ico');
    assert.deepEqual(paths, ['/bundle.html', '/bundle.js', `/testdata/golden/${name}`, `/testdata/golden/${meta.file}`]);
    assert.deepEqual(
      result.present,
      meta.present.map(() => true),
    );
    assert.deepEqual(
      result.absent,
      meta.absent.map(() => false),
    );
    assert.deepEqual(result.reserialized, [...readFileSync(path.join(goldenDir, meta.file))]);
  });
});

// The README's browser example (the ```html block after "## Browser"), exactly, as a page under the strict
// CSP: the package is served where its import points (./node_modules/cuckoo-wasm/), /blocklist.cuckoo is
// a filter the full entry built holding the page's hostname (127.0.0.1), and the page must log `true`,
// having fetched only the read-only entry's modules (none of the full entry's) and the filter.
test("browser: the README's browser example runs through the reader under the strict CSP", async (t) => {
  if (!chromiumAvailable(t)) return;
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Browser\n'));
  const html = /```html\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(html, "README.md has no ```html block after '## Browser'");
  const { CuckooFilter } = await import('../js/index.js');
  const f = await CuckooFilter.create({ capacity: 1000 });
  f.addMany(['127.0.0.1', 'blocked.example']);
  const pages = {
    '/readme.html': { type: 'text/html; charset=utf-8', body: `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n${html}` },
    '/blocklist.cuckoo': { type: 'application/octet-stream', body: Buffer.from(f.serialize()) },
  };
  f.dispose();
  const prefix = '/node_modules/cuckoo-wasm/';
  for (const dir of ['js', 'dist']) {
    for (const file of readdirSync(path.join(root, dir))) {
      if (!/\.(m?js)$/.test(file)) continue;
      pages[`${prefix}${dir}/${file}`] = { type: 'text/javascript; charset=utf-8', body: readFileSync(path.join(root, dir, file)) };
    }
  }
  await withChromium(pages, async ({ page, requests, port }) => {
    const errors = [];
    const logs = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => (m.type() === 'error' ? errors : logs).push(m.text()));
    await page.goto(`http://127.0.0.1:${port}/readme.html`, { timeout: 10_000 });
    const deadline = Date.now() + 15_000;
    while (logs.length === 0 && errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(errors, []);
    assert.deepEqual(logs, ['true']);
    const fetched = requests.map((r) => r.path).filter((p) => p !== '/favicon.ico');
    const modules = fetched
      .filter((p) => p.startsWith(prefix))
      .map((p) => p.slice(prefix.length))
      .sort();
    for (const m of modules) assert.match(m, /^(js\/(reader\w*|classify|errors|memory|stream_source)\.js|dist\/cuckoo_reader_binary\.mjs)$/);
    assert.ok(modules.includes('js/reader.js') && modules.includes('dist/cuckoo_reader_binary.mjs'), modules.join(' '));
    assert.ok(fetched.includes('/blocklist.cuckoo'));
  });
});

// deserialize() of a stream in the full entry: the bytes go straight into the new table as they arrive,
// with the checksum computed on the way. A growing filter of a few hundred KB (several levels, many pieces)
// from a fetch Response and from a ReadableStream of small pieces gives the same filter and answers as
// deserializeSync() of the same bytes; truncated, corrupt and overlong streams are the same FormatErrors.
test('browser: the full entry deserializes a fetch Response and a ReadableStream piece by piece', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { CuckooFilter } = await import('../js/index.js');
  const f = await CuckooFilter.create({ capacity: 20_000, growable: true });
  const kKeys = 200_000;
  f.addMany(Array.from({ length: kKeys }, (_, i) => `key-${i}`));
  const bytes = Buffer.from(f.serialize());
  assert.ok(f.levels >= 3 && bytes.length > 256 * 1024, `levels ${f.levels}, ${bytes.length} bytes`);
  f.dispose();
  const corrupt = Buffer.from(bytes);
  corrupt[bytes.length >> 1] ^= 0x10; // a table byte: only the checksum can tell
  const bad = {
    truncated: bytes.subarray(0, bytes.length - 100),
    header: bytes.subarray(0, 40),
    corrupt,
    trailing: Buffer.concat([bytes, Buffer.from([1, 2, 3])]),
  };
  const html = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module">
import { CuckooFilter } from '/js/index.js';
const out = {};
const outcome = async (make) => {
  try {
    const f = await make();
    const b = f.serialize();
    f.dispose();
    return b;
  } catch (e) {
    return e.name + ': ' + e.message;
  }
};
const same = (a, b) => a instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
try {
  await CuckooFilter.ready;
  const bytes = new Uint8Array(await (await fetch('/big.cuckoo')).arrayBuffer());
  const present = Array.from({ length: ${kKeys} }, (_, i) => 'key-' + i);
  const absent = Array.from({ length: 20000 }, (_, i) => 'absent-' + i);
  const sync = CuckooFilter.deserializeSync(bytes);
  const streamed = await CuckooFilter.deserialize(await fetch('/big.cuckoo'));
  out.sameBytes = same(streamed.serialize(), bytes);
  out.levels = [streamed.levels, sync.levels];
  out.size = [streamed.size, sync.size];
  out.presentFound = streamed.hasMany(present).reduce((a, x) => a + x, 0);
  const syncAbsent = sync.hasMany(absent);
  out.absentAgree = streamed.hasMany(absent).every((x, i) => x === syncAbsent[i]);
  streamed.dispose();
  sync.dispose();
  let at = 0;
  const pieces = new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 1000));
      at += 1000;
    },
  });
  out.smallPiecesSame = same(await outcome(() => CuckooFilter.deserialize(pieces)), bytes);
  out.errors = {};
  for (const name of ${JSON.stringify(Object.keys(bad))}) {
    const input = new Uint8Array(await (await fetch('/' + name + '.cuckoo')).arrayBuffer());
    out.errors[name] = {
      stream: await outcome(async () => CuckooFilter.deserialize(await fetch('/' + name + '.cuckoo'))),
      sync: await outcome(() => CuckooFilter.deserializeSync(input)),
    };
  }
  const again = await CuckooFilter.deserialize(await fetch('/big.cuckoo'));
  out.afterErrors = again.has('key-1') && again.size === ${kKeys};
  again.dispose();
} catch (e) {
  out.error = e.name + ': ' + e.message + '\\n' + e.stack;
}
window.__result = out;
</script>`;
  const pages = {
    '/stream.html': { type: 'text/html; charset=utf-8', body: html },
    '/big.cuckoo': { type: 'application/octet-stream', body: bytes },
  };
  for (const [name, body] of Object.entries(bad)) pages[`/${name}.cuckoo`] = { type: 'application/octet-stream', body };
  await withChromium(pages, async ({ page, port }) => {
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`http://127.0.0.1:${port}/stream.html`, { timeout: 10_000 });
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const out = await page.evaluate(() => window.__result);
    assert.deepEqual(errors, []);
    assert.equal(out.error, undefined, out.error);
    assert.equal(out.sameBytes, true, 'deserialize(Response) gave another filter');
    assert.equal(out.smallPiecesSame, true, 'deserialize(ReadableStream of 1000-byte pieces) gave another filter');
    assert.deepEqual(out.levels, [out.levels[1], out.levels[1]]);
    assert.deepEqual(out.size, [kKeys, kKeys]);
    assert.equal(out.presentFound, kKeys, 'no false negatives');
    assert.equal(out.absentAgree, true);
    for (const [name, { stream, sync }] of Object.entries(out.errors)) {
      assert.match(sync, /^FormatError: cuckoo: /, name);
      assert.equal(stream, sync, `${name}: a stream is refused as its bytes are`);
    }
    assert.match(out.errors.corrupt.sync, /checksum/);
    assert.equal(out.afterErrors, true);
  });
});
