// js/reader.node.js: the ESM entry of `cuckoo-wasm/reader` under Node (package.json's "node" condition).
// Like js/index.node.js for the full entry, it loads the CommonJS bundle that js/reader.cjs exports, so
// that `import` and `require()` share one module, which reads the WebAssembly from its file
// (dist/cuckoo_reader.wasm) instead of inflating the copy embedded for browsers.
import { createRequire } from 'node:module';

const reader = createRequire(import.meta.url)('../dist/reader.cjs');

export const { CuckooReader, FormatError } = reader;
