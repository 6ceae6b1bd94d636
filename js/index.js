// js/index.js: the ESM entry of cuckoo-wasm (Node >= 18, browsers, workers, bundlers).
// js/index.cjs is the CommonJS entry with the same exports; scripts/build-wasm.mjs generates its body.
export { CuckooFilter, ready } from './cuckoo_filter.js';
export { FormatError } from './errors.js';
