'use strict';
// js/index.cjs: the CommonJS entry of cuckoo-wasm, with the same exports as js/index.js.
// dist/cuckoo.cjs is js/*.js bundled as CommonJS by scripts/build-wasm.mjs, so both entries run one code;
// js/index.node.js (Node's `import`) requires the same file.
module.exports = require('../dist/cuckoo.cjs');
