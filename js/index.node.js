// js/index.node.js: the ESM entry of cuckoo-wasm under Node (package.json's "node" condition).
// It loads the CommonJS bundle that js/index.cjs exports, so that `import` and `require()` in one process
// share one module: one WebAssembly instance and one CuckooFilter class (a filter made through either is an
// `instanceof` both). It requires dist/cuckoo.cjs itself rather than going through index.cjs (one file
// fewer to resolve and load at import; the require cache holds one module for both paths), and through
// require() rather than `import ... from` a CommonJS file: Node's ESM loader would first scan the CommonJS
// sources for their export names (cjs-module-lexer), which would add that scan to every cold start.
// Browsers, workers and bundlers take js/index.js, which has no CommonJS in its path: bundlers through the
// "module" condition, listed first because Node ignores it (Rollup without its CommonJS plugin cannot read
// index.cjs, and in one bundle there is only one instance anyway).
import { createRequire } from 'node:module';

const cuckoo = createRequire(import.meta.url)('../dist/cuckoo.cjs');

export const { CuckooFilter, ready, FormatError } = cuckoo;
