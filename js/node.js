// js/node.js: what Node's entries run (scripts/build-wasm.mjs bundles it into dist/cuckoo.cjs, which
// js/index.cjs and js/index.node.js load): js/index.js's exports, with what only Node has. It registers
// filters moved in pieces without a second copy of the table (js/stream.js), which serialize() and
// deserialize() then use, and adds CuckooFilter.load() / filter.save() (files, js/files.node.js) and
// filter.chunks() / CuckooFilter.fromChunks() (js/chunks.js), and addManyIfAbsent() in batches
// (js/batch.node.js). Browser bundles start from js/index.js and load none of it, so that pages download
// less.
import { CuckooFilter, registerNodeOnly } from './cuckoo_filter.js';
import { loadRuntime } from './runtime.js';
import { saveFile, loadFile } from './files.node.js';
import { chunksOf, loadChunks } from './chunks.js';
import { serializeFilter } from './stream.js';
import { addManyIfAbsent } from './batch.node.js';
export { CuckooFilter, ready } from './cuckoo_filter.js';
export { FormatError } from './errors.js';

const { adopt, address } = registerNodeOnly({ serialize: serializeFilter });

// Defined as class methods are: writable, configurable, not enumerable.
function define(target, methods) {
  for (const [name, value] of Object.entries(methods)) {
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
  }
}

define(CuckooFilter, {
  // The filter in the file at path, read straight into its table.
  async load(path) {
    await loadRuntime();
    return adopt(this, loadFile(path));
  },
  // The filter rebuilt from its chunks (chunks()), in order: an array, an iterable or an async iterable.
  async fromChunks(chunks) {
    await loadRuntime();
    return adopt(this, await loadChunks(chunks));
  },
});

define(CuckooFilter.prototype, {
  // Writes serialize()'s bytes to the file at path, atomically, straight from the table.
  async save(path) {
    saveFile(address(this, 'save()'), path);
  },
  // The filter as chunks of at most chunkBytes bytes each (framing included), one new Uint8Array at a
  // time: the chunks C++'s cuckoo::to_chunks makes. The filter must not change while they are read.
  chunks(chunkBytes) {
    address(this, 'chunks()');
    return chunksOf(() => address(this, 'chunks()'), this.byteLength, chunkBytes);
  },
  // The same as js/cuckoo_filter.js's, in one wasm call per chunk of keys.
  addManyIfAbsent(keys) {
    address(this, 'addManyIfAbsent()');
    return addManyIfAbsent(() => address(this, 'addManyIfAbsent()'), keys);
  },
});
