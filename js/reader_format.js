// js/reader_format.js: the header checks of CuckooFilter::deserialize (core/src/format.cpp, docs/format.md),
// in JS for the read-only entry (js/reader.js): steps 2 to 7 and, per table, steps 9 and 10, with the
// same messages in the same order. What needs the table bytes at speed (the checksum, steps 11 to 13) is
// the read-only module's (wasm/reader_exports.cpp); js/reader_filter.js runs the steps in order.
import { FormatError } from './errors.js';

const kHeaderBytes = 56;
const kLevelHeaderBytes = 32;
const kOverhead = 64; // header and checksum
const kMaxKicks = 1 << 20;
// In wasm32 a table must leave room in the address space (options.cpp: SIZE_MAX - padding - 4096).
export const kMaxTableBytes = 2 ** 32 - 1 - 8 - 4096;
const kMaxBody = 2 ** 31 - 1; // format.cpp's growing_body_bytes: SIZE_MAX / 2

export function formatError(message) {
  return new FormatError(`cuckoo: ${message}`);
}

// ceil(n * b * e / 8): the bytes of a table of n buckets (e = f, or f - 1 when semi-sorted).
export function tableBytes(buckets, bucketSize, bits, semiSort) {
  return Math.ceil((buckets * bucketSize * (semiSort ? bits - 1 : bits)) / 8);
}

// d_s = ceil(log2(s + 1)): the fingerprint bits level s adds (core/src/level_hasher.h).
export function extraBits(level) {
  let bits = 0;
  while (2 ** bits < level + 1) bits++;
  return bits;
}

// How many levels a growing filter of this shape can have (level_hasher.h's level_limit).
export function levelLimit(shape) {
  let levels = 1;
  while (levels < 32 && shape.bucketCount * 2 ** levels <= 2 ** 32 && shape.fingerprintBits + extraBits(levels) <= 32) {
    levels++;
  }
  return levels;
}

// is_valid_config()'s message for the first field out of range (names as C++ spells them), or null.
// bucketCount is a BigInt (the header's u64); maxMemoryBytes too (0n: none).
function configProblem(c) {
  const { bucketSize: b, fingerprintBits: f } = c;
  if (b !== 2 && b !== 4 && b !== 8) return `bucket_size must be 2, 4 or 8 (got ${b})`;
  if (f < 4 || f > 32) return `fingerprint_bits must be in 4..32 (got ${f})`;
  if (c.semiSort && b !== 4) return `semi_sort requires bucket_size 4 (got ${b})`;
  if (c.maxKicks > kMaxKicks) return `max_kicks must be at most ${kMaxKicks} (got ${c.maxKicks})`;
  if (c.growable && f > 28) {
    return `a growable filter's fingerprint_bits must be at most 28 (got ${f}): its levels add bits to it, up to 16 levels`;
  }
  const n = c.bucketCount;
  if (n < 2n || n % 2n !== 0n || n > 2n ** 32n) return `bucket_count must be even and in 2..2^32 (got ${n})`;
  const table = tableBytes(Number(n), b, f, c.semiSort);
  if (table > kMaxTableBytes) return `a table of ${n} buckets (${table} bytes) exceeds the 4 GiB of WebAssembly memory`;
  if (c.maxMemoryBytes !== 0n && table > c.maxMemoryBytes) {
    return `max_memory_bytes ${c.maxMemoryBytes} is less than the first level's ${table}-byte table`;
  }
  return null;
}

export function checkLength(size, expected) {
  if (size < expected) throw formatError(`truncated input: expected ${expected} bytes, got ${size}`);
  if (size > expected) throw formatError(`trailing bytes: expected ${expected} bytes, got ${size}`);
}

// Steps 2 to 7 on the bytes of a filter of `size` bytes, of which `bytes` holds at least the 56-byte
// header (all of them, unless they come from a stream: then `size` is Infinity until the stream ends, and
// the caller makes the length check, checkLength(size, body + 8), itself). Returns the filter's shape
// and its tables (oldest first); a version 1 table has the fields steps 9 and 10 check, a version 2 one
// gets them from its level header (readLevelHeaders). Throws FormatError.
export function readHeader(bytes, size = bytes.length) {
  if (size < kOverhead) {
    throw formatError(`truncated input: ${size} bytes is shorter than the ${kOverhead}-byte header and checksum`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, kHeaderBytes);
  const u32 = (at) => view.getUint32(at, true);
  const u64 = (at) => view.getBigUint64(at, true);
  if (u32(0) !== 0x4f4f4b43) throw formatError('bad magic: not a cuckoo filter');
  const version = bytes[4];
  const flags = bytes[7];
  const growable = version === 2;
  if (!growable && version !== 1) {
    throw formatError(`unsupported format version ${version} (this build reads versions 1 and 2)`);
  }
  if (flags & (growable ? ~1 : ~3)) {
    throw formatError(`unknown flag bits in flags byte ${flags}${growable ? ' (version 2 has only bit 0)' : ''}`);
  }
  const shape = {
    growable,
    bucketSize: bytes[5],
    fingerprintBits: bytes[6],
    semiSort: (flags & 1) !== 0,
    maxKicks: u32(8),
    seed: u64(16),
    bucketCount: u64(24),
    maxMemoryBytes: growable ? u64(40) : 0n,
    items: u64(32),
  };
  const problem = configProblem(shape);
  if (problem !== null) throw formatError(`invalid header: ${problem}`);
  shape.bucketCount = Number(shape.bucketCount);
  const { bucketSize, fingerprintBits, semiSort } = shape;
  const tables = [];
  let body = kHeaderBytes;
  if (!growable) {
    body += tableBytes(shape.bucketCount, bucketSize, fingerprintBits, semiSort);
    tables.push({
      level: 0,
      extra: 0,
      buckets: shape.bucketCount,
      bits: fingerprintBits,
      offset: kHeaderBytes,
      levelFlags: 0,
      victim: (flags & 2) !== 0,
      victimFp: u32(12),
      victimIndex: u64(40),
      items: shape.items,
    });
  } else {
    const levels = u32(12);
    const limit = levelLimit(shape);
    if (levels === 0 || levels > limit) {
      throw formatError(`invalid header: level count ${levels} (this shape allows 1..${limit})`);
    }
    if (u64(48) !== 0n) throw formatError('invalid header: reserved field is not zero');
    for (let s = 0; s < levels && body !== 0; s++) {
      const buckets = shape.bucketCount * 2 ** s;
      const extra = extraBits(s);
      const table = tableBytes(buckets, bucketSize, fingerprintBits + extra, semiSort);
      tables.push({ level: s, extra, buckets, bits: fingerprintBits + extra, offset: body + kLevelHeaderBytes });
      body = table > kMaxTableBytes || body + kLevelHeaderBytes + table > kMaxBody ? 0 : body + kLevelHeaderBytes + table;
    }
    if (body === 0) throw formatError(`invalid header: ${levels} levels of this shape exceed the address space`);
  }
  if (size !== Infinity) checkLength(size, body + 8);
  return { shape, tables, body };
}

// A version 2 filter's level headers, from its whole bytes (after the length check), into its tables.
export function readLevelHeaders(bytes, shape, tables) {
  if (!shape.growable) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (const t of tables) {
    const at = t.offset - kLevelHeaderBytes;
    t.items = view.getBigUint64(at, true);
    t.victimIndex = view.getBigUint64(at + 8, true);
    t.victimFp = view.getUint32(at + 24, true);
    t.levelFlags = view.getUint32(at + 28, true);
    t.victim = (t.levelFlags & 1) !== 0;
  }
}

// Steps 9 and 10 of one table (its level flags first, for version 2); `where` prefixes the messages.
export function checkTable(shape, t, where) {
  if (t.levelFlags & ~1) throw formatError(`${where}unknown flag bits in level flags ${t.levelFlags >>> 0}`);
  if (t.victim) {
    if (t.victimFp < 2 ** t.extra || t.victimFp > 2 ** t.bits - 1) throw formatError(`${where}invalid victim fingerprint`);
    if (t.victimIndex >= BigInt(t.buckets)) throw formatError(`${where}victim bucket index out of range`);
  } else if (t.victimFp !== 0 || t.victimIndex !== 0n) {
    throw formatError(`${where}victim fields set without the victim flag`);
  }
  const slots = t.buckets * shape.bucketSize;
  if (t.items > BigInt(slots + (t.victim ? 1 : 0))) throw formatError(`${where}item count ${t.items} exceeds the ${slots} slots`);
}
