// js/reader.js: the read-only entry of cuckoo-wasm (`cuckoo-wasm/reader`), for pages and workers that query
// filters built elsewhere: CuckooReader loads a filter's bytes and answers has/hasMany/count as
// CuckooFilter does, with a WebAssembly module of its own a fraction of the full entry's size.
// js/reader.cjs is its CommonJS entry and js/reader.node.js its ESM entry under Node.
export { CuckooReader } from './reader_filter.js';
export { FormatError } from './errors.js';
