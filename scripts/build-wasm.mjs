#!/usr/bin/env node
// scripts/build-wasm.mjs (`npm run build`): builds the WebAssembly module with Emscripten in its two
// flavours (wasm/CMakeLists.txt: "node", fast; "web", small) and writes dist/:
//   dist/cuckoo_wasm_binary.mjs   the web flavour, deflated, as base64 (default export)  <- js/runtime.js (ESM)
//   dist/cuckoo_wasm_node.wasm    the node flavour                                       <- dist/cuckoo.cjs
//   dist/cuckoo.cjs        js/node.js (js/index.js's exports and Node's file functions) bundled as
//                          CommonJS (scripts/cjs-bundle.mjs), reading the node flavour from its file,
//                          with js/errors.node.js for js/errors.js
//                          <- js/index.cjs (require), js/index.node.js (import)
//   dist/cuckoo_reader_binary.mjs  the read-only module (wasm/reader_exports.cpp, built with the web
//                          flavour), deflated, as base64          <- js/reader_runtime.js (`cuckoo-wasm/reader`)
//   dist/cuckoo_reader.wasm  the read-only module             <- dist/reader.cjs
//   dist/reader.cjs        js/reader.js bundled as CommonJS, reading the module from its file
//                          <- js/reader.cjs (require), js/reader.node.js (import in Node)
//   dist/reader.d.cts      js/reader.d.ts, the same for the read-only entry
//   dist/index.d.cts       js/index.d.ts as CommonJS declarations (TypeScript reads a .d.ts in a "type":
//                          "module" package as ESM, so `require` under module node16 needs its own copy)
// The embedded modules are deflated with zopfli (a zlib stream any inflater reads, smaller than zlib's
// level 9): what a page downloads.
// So ES module imports (browsers, workers, bundlers) get the small module and Node's entries, which go
// through the CommonJS bundle, the fast one. Then it loads both entries as a smoke test. The first build
// compiles Emscripten's system libraries into its cache, which takes a few minutes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleCjs } from './cjs-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

// Debian's emscripten runs acorn-optimizer.js, which needs the `acorn` module from /usr/share/nodejs;
// a Node from nodesource does not look there.
const nodePath = [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(path.delimiter);
const env = { ...process.env, NODE_PATH: nodePath };

function run(cmd, args) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    console.error(`build-wasm: '${cmd}' failed with exit code ${r.status}`);
    process.exit(r.status ?? 1);
  }
}

function requireTool(cmd, hint) {
  const r = spawnSync(cmd, ['--version'], { env, stdio: 'ignore' });
  if (r.error || r.status !== 0) {
    console.error(`build-wasm: '${cmd}' not found. ${hint}`);
    process.exit(1);
  }
}

requireTool('em++', 'Install Emscripten: `apt-get install emscripten` (Debian/Ubuntu), or install the emsdk and `source emsdk_env.sh`.');
requireTool('cmake', 'Install CMake >= 3.16: `apt-get install cmake`.');
requireTool('ninja', 'Install Ninja: `apt-get install ninja-build`.');
requireTool('zopfli', 'Install zopfli: `apt-get install zopfli`.');

// The zlib stream (what DecompressionStream('deflate') reads) of the file at `file`, by zopfli.
function deflate(file) {
  const r = spawnSync('zopfli', ['--zlib', '-c', file], { env, maxBuffer: 1 << 30 });
  if (r.error || r.status !== 0) throw new Error(`build-wasm: zopfli failed on ${file}: ${r.stderr}`);
  return r.stdout;
}

function checkImports(wasm, what, expected) {
  const imports = WebAssembly.Module.imports(new WebAssembly.Module(wasm))
    .map((i) => `${i.module}.${i.name}`)
    .sort();
  if (JSON.stringify(imports) !== JSON.stringify(expected)) {
    throw new Error(`build-wasm: the ${what} imports ${imports.join(', ') || 'nothing'}; expected ${expected.join(', ') || 'nothing'}`);
  }
}

// Each flavour in a build directory of its own; returns the module's bytes.
function buildFlavour(flavour, dir) {
  const buildDir = path.join(root, dir);
  run('emcmake', ['cmake', '-S', '.', '-B', buildDir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release', `-DCUCKOO_WASM_FLAVOR=${flavour}`]);
  run('cmake', ['--build', buildDir]);
  const wasm = readFileSync(path.join(buildDir, 'wasm', 'cuckoo_wasm.wasm'));
  // js/runtime.js provides exactly these imports; a toolchain or code change that adds one must add it there.
  checkImports(wasm, `${flavour} module`, ['env.emscripten_notify_memory_growth', 'wasi_snapshot_preview1.proc_exit']);
  return wasm;
}

const nodeWasm = buildFlavour('node', 'build-wasm');
const webWasm = buildFlavour('web', 'build-wasm-web');
const banner = '// Generated by scripts/build-wasm.mjs from wasm/ and core/ (Emscripten): do not edit.\n';
const webDeflated = deflate(path.join(root, 'build-wasm-web', 'wasm', 'cuckoo_wasm.wasm'));
// The read-only module, built beside the web flavour; js/reader_runtime.js gives it no imports.
const readerFile = path.join(root, 'build-wasm-web', 'wasm', 'cuckoo_reader.wasm');
const readerWasm = readFileSync(readerFile);
checkImports(readerWasm, 'read-only module', []);
const readerBinary = `{ base64: '${deflate(readerFile).toString('base64')}' }`;

mkdirSync(dist, { recursive: true });
// The Emscripten JS glue and the base64 node flavour of earlier builds, if a checkout still has them.
for (const stale of ['cuckoo_wasm.mjs', 'cuckoo_wasm.cjs', 'cuckoo_wasm_binary.cjs']) {
  rmSync(path.join(dist, stale), { force: true });
}
writeFileSync(path.join(dist, 'cuckoo_wasm_binary.mjs'), `${banner}export default { base64: '${webDeflated.toString('base64')}' };\n`);
writeFileSync(path.join(dist, 'cuckoo_reader_binary.mjs'), `${banner}export default ${readerBinary};\n`);
writeFileSync(path.join(dist, 'cuckoo_wasm_node.wasm'), nodeWasm);
// The bundle reads the node flavour from its file when the module is first loaded (js/runtime.js): a
// synchronous read of a local file, which costs less than parsing and decoding the same bytes as a base64
// string in a JS module. Inlined rather than required from a file of its own: one file fewer to resolve
// and load at import.
const nodeBinary = "{ read: () => require('node:fs').readFileSync(require('node:path').join(__dirname, 'cuckoo_wasm_node.wasm')) }";
// js/errors.node.js in js/errors.js's place: the node module records which option an error is about.
const nodeErrors = { [path.join(root, 'js', 'errors.js')]: path.join(root, 'js', 'errors.node.js') };
writeFileSync(path.join(dist, 'cuckoo.cjs'), bundleCjs(path.join(root, 'js', 'node.js'), { '../dist/cuckoo_wasm_binary.mjs': nodeBinary }, nodeErrors));
// Node's read-only entries read the module from its file, as the full entry's do.
writeFileSync(path.join(dist, 'cuckoo_reader.wasm'), readerWasm);
const readerFromFile = "{ read: () => require('node:fs').readFileSync(require('node:path').join(__dirname, 'cuckoo_reader.wasm')) }";
writeFileSync(path.join(dist, 'reader.cjs'), bundleCjs(path.join(root, 'js', 'reader.js'), { '../dist/cuckoo_reader_binary.mjs': readerFromFile }));
writeFileSync(path.join(dist, 'index.d.cts'), readFileSync(path.join(root, 'js', 'index.d.ts'), 'utf8'));
// The reader's declarations take the key types from the main entry's, as CommonJS declarations there.
writeFileSync(path.join(dist, 'reader.d.cts'), readFileSync(path.join(root, 'js', 'reader.d.ts'), 'utf8').replace("from './index.js'", "from './index.cjs'"));

// Smoke test: both entries load and agree.
async function smoke(lib, how) {
  const f = await lib.CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  const ok = f.add('smoke') && f.has('smoke') && f.size === 1;
  f.dispose();
  if (!ok) throw new Error(`build-wasm: smoke test failed through ${how}`);
}
await smoke(await import(pathToFileURL(path.join(root, 'js', 'index.js')).href), 'ESM');
await smoke(createRequire(import.meta.url)(path.join(root, 'js', 'index.cjs')), 'CommonJS');

// The read-only entries load a filter the full one wrote, and agree with it.
async function smokeReader(reader, how) {
  const lib = await import(pathToFileURL(path.join(root, 'js', 'index.js')).href);
  const f = await lib.CuckooFilter.create({ capacity: 1000, fpr: 0.01 });
  f.add('smoke');
  const r = await reader.CuckooReader.deserialize(f.serialize());
  const ok = r.has('smoke') && r.size === 1 && r.count('smoke') === 1;
  f.dispose();
  r.dispose();
  if (!ok) throw new Error(`build-wasm: smoke test failed through the read-only ${how} entry`);
}
await smokeReader(await import(pathToFileURL(path.join(root, 'js', 'reader.js')).href), 'ESM');
await smokeReader(await import(pathToFileURL(path.join(root, 'js', 'reader.node.js')).href), 'Node ESM');
await smokeReader(createRequire(import.meta.url)(path.join(root, 'js', 'reader.cjs')), 'CommonJS');

console.log(
  `build-wasm: dist/ written (node module ${nodeWasm.length} bytes; web module ${webWasm.length} bytes, ` +
    `${webDeflated.length} deflated; read-only module ${readerWasm.length} bytes, ${readerBinary.length} as base64); ` +
    'ESM and CJS entries load.',
);
