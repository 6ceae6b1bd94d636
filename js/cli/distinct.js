// js/cli/distinct.js: the exact number of distinct keys of an input read whole, for sizing a filter that
// stores each distinct key once (build without --keep-duplicates). tools/cli/distinct.cpp counts the same
// way, so both tools size, and write, the same filter.
//
// An open-addressing set of the keys' offsets in the data, with linear probing, sized for the input's
// keys so that it never grows. Slot i is slots[2i] = a key's offset + 1 (0: empty) and slots[2i + 1] =
// its hash, side by side (one cache line per probe), so most probes that meet another key are told apart
// without reading it. Keys are compared byte for byte: distinct keys whose hashes collide count twice.
import { countKeys } from './lines.js';

// The key starting at offset ends before its line's '\n', less one trailing '\r' (lines.js).
function keyEnd(bytes, offset) {
  let end = bytes.indexOf(10, offset);
  if (end > offset && bytes[end - 1] === 13) end--;
  return end;
}

// A murmur3 finalizer over an FNV-1a hash, so that the low bits index the table well.
function mix(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// The distinct keys of `bytes` (a Buffer of at most 4 GiB), split by lines.js's rules. bytes must end
// with '\n' (build appends one).
export function countDistinctKeys(bytes) {
  let size = 1 << 10;
  for (const keys = countKeys(bytes); size * 3 < keys * 4;) size *= 2; // at most 3/4 full
  const slots = new Uint32Array(2 * size); // offset + 1 fits: the last key starts at length - 2 at most
  const mask = size - 1;
  let count = 0;

  // Keys go in blocks: a first pass reads each key's first slot, so that the cache misses of a block
  // overlap (JS has no prefetch), then each key is placed unless an equal key is there.
  const kBlock = 32;
  const hashes = new Uint32Array(kBlock);
  const starts = new Uint32Array(kBlock);
  const ends = new Uint32Array(kBlock);
  let n = 0;
  let touched = 0;
  function placeBlock() {
    for (let k = 0; k < n; k++) touched ^= slots[2 * (hashes[k] & mask)];
    for (let k = 0; k < n; k++) {
      const h = hashes[k];
      const start = starts[k];
      const end = ends[k];
      for (let i = h & mask; ; i = (i + 1) & mask) {
        const slot = slots[2 * i];
        if (slot === 0) {
          slots[2 * i] = start + 1;
          slots[2 * i + 1] = h;
          count++;
          break;
        }
        if (slots[2 * i + 1] === h) {
          const other = slot - 1;
          const otherEnd = keyEnd(bytes, other);
          if (otherEnd - other === end - start && bytes.compare(bytes, other, otherEnd, start, end) === 0) break;
        }
      }
    }
    n = 0;
  }

  // One pass: each line's FNV-1a hash, and the hash before its last byte in case that is a '\r'.
  const kBasis = 0x811c9dc5;
  let start = 0;
  let h = kBasis;
  let before = kBasis;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 10) {
      before = h;
      h = Math.imul(h ^ c, 0x01000193);
      continue;
    }
    const cr = i > start && bytes[i - 1] === 13;
    const end = cr ? i - 1 : i;
    if (end > start) {
      hashes[n] = mix(cr ? before : h);
      starts[n] = start;
      ends[n] = end;
      if (++n === kBlock) placeBlock();
    }
    start = i + 1;
    h = before = kBasis;
  }
  placeBlock();
  return count + (touched & 0);
}
