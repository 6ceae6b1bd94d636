// js/cli/distinct.js: the exact number of distinct keys of an input read whole, for sizing a filter that
// stores each distinct key once (build without --keep-duplicates). tools/cli/distinct.cpp counts the same
// way, so both tools size, and write, the same filter.
//
// An open-addressing set of the keys' offsets in the data, with linear probing: offsets[i] is a key's
// offset + 1 (0: empty) and hashes[i] its hash, so most probes that meet another key are told apart
// without reading it. Keys are compared byte for byte: distinct keys whose hashes collide count twice.

// FNV-1a over bytes[start, end), then a murmur3 finalizer so that the low bits index the table well.
function hashOf(bytes, start, end) {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// The key starting at offset ends before its line's '\n', less one trailing '\r' (lines.js).
function keyEnd(bytes, offset) {
  let end = bytes.indexOf(10, offset);
  if (end > offset && bytes[end - 1] === 13) end--;
  return end;
}

// The distinct keys of `bytes` (a Buffer, at most 4 GiB), split by lines.js's rules. bytes must end
// with '\n' (build appends one).
export function countDistinctKeys(bytes) {
  // At most one key per line: the set is sized for the lines, at most 3/4 full, and never grows.
  let lines = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines++;
  let size = 1 << 10;
  while (size * 3 < lines * 4) size *= 2;
  const offsets = new Uint32Array(size); // a key's offset + 1 (the last key starts at length - 2 at most)
  const hashes = new Uint32Array(size);
  const mask = size - 1;
  let count = 0;

  // Inserts the key [start, end) with hash h unless an equal key is there; true if it was new.
  function place(h, start, end) {
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = offsets[i];
      if (slot === 0) {
        offsets[i] = start + 1;
        hashes[i] = h;
        return true;
      }
      if (hashes[i] === h) {
        const other = slot - 1;
        const otherEnd = keyEnd(bytes, other);
        if (otherEnd - other === end - start && bytes.compare(bytes, other, otherEnd, start, end) === 0) return false;
      }
    }
  }

  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(10, start);
    let end = nl;
    if (end > start && bytes[end - 1] === 13) end--;
    if (end > start && place(hashOf(bytes, start, end), start, end)) count++;
    start = nl + 1;
  }
  return count;
}
