// js/native.js: a C++ filter in wasm memory, as a handle over wasm/bindings.cpp's cold C exports
// (construction, configuration, properties, serialization, merge). js/cuckoo_filter.js owns one per filter; the
// per-key and batch calls bypass it (runtime.js's callRaw, with the address).
import { rt } from './memory.js';

// cuckoo_config's block (wasm/protocol.h, ConfigBlock): each field's byte offset and width in bits.
// js-tests/protocol.test.js checks these against the module's own layout.
export const kConfigLayout = {
  bucketSize: [0, 32],
  fingerprintBits: [4, 32],
  maxKicks: [8, 32],
  semiSort: [12, 32],
  growable: [16, 32],
  seed: [24, 64],
  bucketCount: [32, 64], // the first level's
  maxMemoryBytes: [40, 64], // 0: no limit
};
export const kConfigBytes = 48;

export class NativeFilter {
  #address;

  constructor(address) {
    this.#address = address;
  }

  // A new filter from the arguments options.js's createArgs() builds, or null with the error recorded
  // (errors.js, lastError).
  static create(args) {
    const address = rt.M._cuckoo_create(...args);
    return address === 0 ? null : new NativeFilter(address);
  }

  _address() {
    return this.#address;
  }

  // The resolved configuration, with the 64-bit fields as unsigned BigInts.
  _config() {
    const at = rt.M._cuckoo_config(this.#address) >>> 0;
    const config = {};
    for (const [name, [offset, bits]] of Object.entries(kConfigLayout)) {
      config[name] = bits === 64 ? rt.heap64[(at + offset) >>> 3] : rt.heap32[(at + offset) >>> 2];
    }
    config.semiSort = config.semiSort !== 0;
    config.growable = config.growable !== 0;
    return config;
  }

  _size() {
    return rt.M._cuckoo_size(this.#address);
  }

  // Of every level (a growing filter's grows).
  _bucketCount() {
    return rt.M._cuckoo_bucket_count(this.#address);
  }

  _slotCount() {
    return rt.M._cuckoo_slot_count(this.#address);
  }

  _levels() {
    return rt.M._cuckoo_levels(this.#address) >>> 0;
  }

  _isFull() {
    return rt.M._cuckoo_is_full(this.#address) !== 0;
  }

  _loadFactor() {
    return rt.M._cuckoo_load_factor(this.#address);
  }

  _bitsPerItem() {
    return rt.M._cuckoo_bits_per_item(this.#address);
  }

  _fprBound() {
    return rt.M._cuckoo_fpr_bound(this.#address);
  }

  _serializedSize() {
    return rt.M._cuckoo_serialized_size(this.#address) >>> 0;
  }

  _serializeInto(out) {
    rt.M._cuckoo_serialize_into(this.#address, out);
  }

  _clear() {
    rt.M._cuckoo_clear(this.#address);
  }

  // Merges `source` (another NativeFilter) into this one: false with the error recorded, this unchanged.
  _merge(source) {
    return rt.M._cuckoo_merge(this.#address, source._address()) !== 0;
  }

  // Frees the C++ object; the handle must not be used after.
  delete() {
    rt.M._cuckoo_destroy(this.#address);
  }
}
