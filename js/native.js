// js/native.js: a C++ filter in wasm memory, as a handle over wasm/bindings.cpp's cold C exports
// (construction, configuration, properties, serialization, merge). js/cuckoo_filter.js owns one per filter; the
// per-key and batch calls bypass it (runtime.js's callRaw, with the address).
import { rt } from './memory.js';

// cuckoo_config's output: u32 bucket_size, fingerprint_bits, max_kicks, semi_sort, huge_pages, growable,
// then u64 seed, bucket_count, max_memory_bytes.
const kConfigBytes = 48;

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

  // The filter serialized in wasm memory at [data, data + length), or null with the error recorded.
  static deserialize(data, length) {
    const address = rt.M._cuckoo_deserialize(data, length);
    return address === 0 ? null : new NativeFilter(address);
  }

  _address() {
    return this.#address;
  }

  // The resolved configuration, with the 64-bit fields as unsigned BigInts.
  _config() {
    const M = rt.M;
    const out = M._malloc(kConfigBytes) >>> 0;
    if (out === 0) throw new RangeError('cuckoo-wasm: out of WebAssembly memory reading a filter\'s configuration');
    try {
      M._cuckoo_config(this.#address, out);
      const words = rt.heap32.subarray(out >>> 2, (out >>> 2) + 6);
      return {
        bucketSize: words[0],
        fingerprintBits: words[1],
        maxKicks: words[2],
        semiSort: words[3] !== 0,
        hugePages: words[4] !== 0,
        growable: words[5] !== 0,
        seed: rt.heap64[(out >>> 3) + 3],
        bucketCount: rt.heap64[(out >>> 3) + 4], // the first level's
        maxMemoryBytes: rt.heap64[(out >>> 3) + 5], // 0: no limit
      };
    } finally {
      M._free(out);
    }
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
