'use strict';
// js/reader.cjs: the CommonJS entry of `cuckoo-wasm/reader`, with the same exports as js/reader.js, which
// scripts/build-wasm.mjs bundles into dist/reader.cjs.
module.exports = require('../dist/reader.cjs');
