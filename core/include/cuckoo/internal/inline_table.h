// cuckoo/internal/inline_table.h: single-key lookups and inserts of integer keys, compiled into the caller.
// Not part of the API: included by cuckoo/filter.h, whose contains(uint64_t), insert(uint64_t) and
// is_full() use it, and by cuckoo/view.h, whose contains(uint64_t) uses it. It computes exactly what the library does (docs/hashing.md); native-tests/
// inline_table_test.cpp holds it to the library's own code on every shape.
//
// A fixed filter of plain buckets (not semi-sorted) each of which one 8-byte load from the byte holding its
// first bit reads whole publishes its table as an InlineTable: buckets of whole bytes of at most 64 bits
// (bucket_size * fingerprint_bits a multiple of 8) as `table`, bit-packed ones (the table is one bit
// stream, docs/format.md) whose bits, shifted by their first bit's place in its byte, fit 64 as
// `packed_table` (b = 4: f <= 15; b = 2: f <= 30). The caller then hashes the key, finds its two buckets
// and tests them itself, instead of calling into the library and through the core's virtual call. Every
// other filter (growing, semi-sorted, wider buckets) has an empty InlineTable (no table,
// kEveryCallToTheLibrary), and the calls go to the library.
//
// The inline code works only with what InlineTable holds, all of it read at run time, so every eligible
// shape shares it. A whole-byte table of f <= 16 bits and at most 2^32 bytes, at least 16 times the size
// of a table of every fingerprint's alternate target as a byte offset (docs/hashing.md's t times the
// bucket's bytes, 4 bytes each), comes with that table, `alternate_offsets`: its lookups load the offset
// where the others compute t with two multiplies and scale it with a third, which shortens the chain from
// the key to the second bucket's load. A whole-byte table without it whose bucket_count is a power of two
// is published as `pow2_table` instead of `table`, and takes shifts and a mask where the others take
// multiplies (inline_probe_pow2). Both give the same results as the multiplies.
// The inline code hands the call to the library whenever the answer needs more than two buckets:
// - contains: the key's fingerprint equals the parked victim's (a full filter, 1 lookup in ~2^f);
// - insert: a victim is parked (the library refuses), or both buckets are full (the library walks).
// The library then computes everything again: the inline code changes nothing before it hands over.
//
// Compiled out (every call goes to the library) with CUCKOO_INLINE_LOOKUP=0, and by default under -Os/-Oz,
// where the inlined code costs more than the call.
#pragma once

#include <cstdint>
#include <cstring>

#ifndef CUCKOO_INLINE_LOOKUP
#if defined(__OPTIMIZE_SIZE__)
#define CUCKOO_INLINE_LOOKUP 0
#else
#define CUCKOO_INLINE_LOOKUP 1
#endif
#endif

#if CUCKOO_INLINE_LOOKUP && (defined(__x86_64__) || defined(_M_X64)) && defined(__SSE2__)
#include <emmintrin.h>
#define CUCKOO_INLINE_SSE2 1
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif
#else
#define CUCKOO_INLINE_SSE2 0
#endif

// CUCKOO_INLINE_HIDDEN: a constant the inline code reads from memory is not looked up through the GOT
// in position-independent code (each shared object keeps its own copy).
#if defined(__GNUC__) || defined(__clang__)
#define CUCKOO_INLINE_HIDDEN __attribute__((visibility("hidden")))
#define CUCKOO_PURE __attribute__((pure))
#define CUCKOO_INLINE_LIKELY(x) __builtin_expect(!!(x), 1)
#define CUCKOO_INLINE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CUCKOO_INLINE_HIDDEN
#define CUCKOO_PURE
#define CUCKOO_INLINE_LIKELY(x) (x)
#define CUCKOO_INLINE_UNLIKELY(x) (x)
#endif

// The inline code must be compiled into the caller's loop. GCC does that at -O2 and -O3 by itself; Clang's
// inliner leaves inline_contains, or the probes it calls, as calls (bench/README.md). For Clang,
// CUCKOO_INLINE_ALWAYS puts a function into its caller (cuckoo/filter.h's and cuckoo/view.h's integer-key
// members) and CUCKOO_INLINE_FLATTEN puts it there with everything it calls; GCC keeps its own choices, and
// so does every compiler when the inline code is compiled out.
#if defined(__clang__) && CUCKOO_INLINE_LOOKUP
#define CUCKOO_INLINE_ALWAYS inline __attribute__((always_inline))
#define CUCKOO_INLINE_FLATTEN inline __attribute__((always_inline, flatten))
#else
#define CUCKOO_INLINE_ALWAYS inline
#define CUCKOO_INLINE_FLATTEN inline
#endif

namespace cuckoo::internal {

// The victim fingerprint an InlineTable shows when the inline code must not serve the filter (none of its
// tables is set): a "parked victim", which sends inserts to the library with no test of their own, and
// lookups after no hashing.
inline constexpr uint32_t kEveryCallToTheLibrary = 1;

// What the inline code needs of a fixed filter's table; owned by the library's core, which keeps it
// current (the table's address and the item count live in the core itself; the parked victim's
// fingerprint is copied here whenever it changes).
struct InlineTable {
  // At most one of the three tables is not null. Whole-byte buckets: bucket i is bucket_bytes bytes at
  // table + i * bucket_bytes, or at pow2_table + i * bucket_bytes when bucket_count is a power of two and
  // the table has no alternate_offsets. Bit-packed buckets: bucket i is bucket_bits bits from bit
  // i * bucket_bits of the little-endian bit stream at packed_table (bits.h), and those bits, shifted down
  // by the place of the first one in its byte, fit one 64-bit word.
  uint8_t* table = nullptr;
  uint8_t* pow2_table = nullptr;
  uint8_t* packed_table = nullptr;
  // Null, or (with table only, of at most 2^32 bytes) alternate_target(fp, bucket_count) * bucket_bytes at
  // index fp for every fingerprint fp in [1, 2^f - 1]; owned by the core. With it, table_end is
  // table + bucket_count * bucket_bytes.
  const uint32_t* alternate_offsets = nullptr;
  const uint8_t* table_end = nullptr;
  uint64_t bucket_count = 0;       // even, at most 2^32
  uint64_t bucket_bytes = 0;       // table: bucket_size * fingerprint_bits / 8, at most 8
  uint64_t bucket_bits = 0;        // packed_table: bucket_size * fingerprint_bits, not a multiple of 8
  uint64_t hash_premix = 0;        // xxh3_premix of XXH3's 8-byte input mask for the filter's seed (hash.h)
  uint64_t fingerprint_range = 0;  // 2^f - 1
  // Bit 0 of each of a bucket's b fields, and the top bit of each of them; both words twice, so that the
  // two-bucket test reads each as one 16-byte operand instead of broadcasting it for every key.
  alignas(16) uint64_t field_lows[2] = {0, 0};
  alignas(16) uint64_t field_highs[2] = {0, 0};
  // bucket_count - 1 when bucket_count is a power of two 2^k, else 0; then index_shift = 32 - k and
  // target_shift = 64 - k (inline_probe_pow2).
  uint64_t bucket_mask = 0;
  unsigned index_shift = 0;
  unsigned target_shift = 0;
  unsigned fingerprint_bits = 0;
  uint64_t victim_fingerprint = kEveryCallToTheLibrary;  // the parked victim's, 0 when there is none
  uint64_t* size = nullptr;                              // items stored

  // Whether the inline code serves this filter (one of the tables is set); the library's core keeps the
  // fields of such an InlineTable current.
  bool serves() const { return table != nullptr || pow2_table != nullptr || packed_table != nullptr; }

  // Sets bucket_count (even, at most 2^32) and, for a power of two, bucket_mask and the shifts. The core
  // then publishes a whole-byte table without alternate_offsets as pow2_table when bucket_mask is not 0.
  void set_bucket_count(uint64_t n) {
    bucket_count = n;
    bucket_mask = index_shift = target_shift = 0;
    if ((n & (n - 1)) != 0) return;
    unsigned k = 0;
    while ((uint64_t{1} << k) != n) ++k;
    bucket_mask = n - 1;
    index_shift = 32 - k;
    target_shift = 64 - k;
  }
};

// A key's two buckets and fingerprint.
struct InlineProbe {
  uint64_t bucket, alternate;
  uint32_t fingerprint;
};

constexpr uint64_t rotate_left(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }

// XXH3's first step for an 8-byte key, h ^= rotl(h, 49) ^ rotl(h, 24) with h = (the key's 32-bit halves
// swapped) ^ bitflip, is linear in the key and in bitflip (a mask that depends only on the seed): it is
// rotl(key, 32) ^ rotl(key, 17) ^ rotl(key, 56) ^ xxh3_premix(bitflip). So the seed's share is done once
// per filter, and the key's three rotations need not wait for one another.
constexpr uint64_t xxh3_premix(uint64_t bitflip) {
  return bitflip ^ rotate_left(bitflip, 49) ^ rotate_left(bitflip, 24);
}

CUCKOO_INLINE_HIDDEN inline constexpr uint64_t kXxh3RrmxmxPrime = 0x9FB21C651E98DF25ull;

// How xxh3_u64 is compiled. kForLoops: plain C++, which compilers may vectorize across a loop of keys
// (GCC does with AVX-512); the library's batches and its own hashing use it. kForOneKey: for the inline
// lookups and inserts, which the caller's loop runs one key at a time around a call to the library on
// the cold path; on x86-64 with GCC or Clang it pins down two choices with inline assembly:
// - the prime is a memory operand of imul, not a register kept across that call, which the caller's loop
//   would pay for by spilling its key pointer and reloading it before every key;
// - the first step's four terms are xored two deep, not chained one after another.
enum class Xxh3Use {
  kForLoops,
  kForOneKey,
};

template <Xxh3Use kUse>
inline uint64_t times_xxh3_prime(uint64_t h) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  if constexpr (kUse == Xxh3Use::kForOneKey) {
    __asm__("{imulq %[prime], %[h]|imul %[h], %[prime]}"
            : [h] "+r"(h)
            : [prime] "m"(kXxh3RrmxmxPrime)
            : "cc");
    return h;
  }
#endif
  return h * kXxh3RrmxmxPrime;
}

// XXH3_64bits_withSeed of the key's 8 little-endian bytes, given xxh3_premix of the seed's bitflip: the
// first step as above, then XXH3's rrmxmx avalanche for length 8. Both uses give the same bits.
template <Xxh3Use kUse = Xxh3Use::kForLoops>
inline uint64_t xxh3_u64(uint64_t key, uint64_t premix) {
  uint64_t rotations = rotate_left(key, 32) ^ rotate_left(key, 17);
  uint64_t masked = rotate_left(key, 56) ^ premix;
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  if constexpr (kUse == Xxh3Use::kForOneKey) {
    __asm__(""
            : "+r"(rotations), "+r"(masked));
  }
#endif
  uint64_t h = times_xxh3_prime<kUse>(rotations ^ masked);
  h ^= (h >> 35) + 8;
  h = times_xxh3_prime<kUse>(h);
  return h ^ (h >> 28);
}

// docs/hashing.md's index of a key's hash h: its low 32 bits scaled to [0, bucket_count).
inline uint64_t hash_index(uint64_t h, uint64_t bucket_count) { return ((h & 0xFFFFFFFFu) * bucket_count) >> 32; }

// docs/hashing.md's fingerprint of h: its high 32 bits scaled to [1, fingerprint_range], fingerprint_range
// = 2^f - 1 (f <= 32). A 64-bit word, so that the lookups multiply with it without widening it first.
inline uint64_t hash_fingerprint(uint64_t h, uint64_t fingerprint_range) {
  return 1 + (((h >> 32) * fingerprint_range) >> 32);
}

// docs/hashing.md's t for a fingerprint: the alternate of bucket i is (t - i) mod bucket_count.
inline uint64_t alternate_target(uint32_t fingerprint, uint64_t bucket_count) {
  const uint64_t mixed = (uint64_t{fingerprint} * 0x9E3779B97F4A7C15ull) >> 32;
  return ((mixed * bucket_count) >> 32) | 1;
}

// (target - bucket) mod bucket_count, for both below bucket_count, without a division.
inline uint64_t alternate_bucket(uint64_t target, uint64_t bucket, uint64_t bucket_count) {
  const uint64_t difference = target - bucket;
  return target < bucket ? difference + bucket_count : difference;
}

// docs/hashing.md's index, fingerprint and alternate bucket.
inline InlineProbe inline_probe(const InlineTable& t, uint64_t key) {
  const uint64_t h = xxh3_u64<Xxh3Use::kForOneKey>(key, t.hash_premix);
  const uint64_t n = t.bucket_count, bucket = hash_index(h, n);
  const uint32_t fingerprint = static_cast<uint32_t>(hash_fingerprint(h, t.fingerprint_range));
  return {bucket, alternate_bucket(alternate_target(fingerprint, n), bucket, n), fingerprint};
}

// inline_probe for bucket_count = 2^k (bucket_mask not 0): (x * 2^k) >> 32 is x >> (32 - k), mixed * 2^k
// is the top k bits of the 64-bit product that mixed is the top half of, and (target - bucket) mod 2^k is
// a mask.
inline InlineProbe inline_probe_pow2(const InlineTable& t, uint64_t key) {
  const uint64_t h = xxh3_u64<Xxh3Use::kForOneKey>(key, t.hash_premix);
  const uint64_t bucket = (h & 0xFFFFFFFFu) >> t.index_shift;
  const uint32_t fingerprint = static_cast<uint32_t>(hash_fingerprint(h, t.fingerprint_range));
  const uint64_t target = ((uint64_t{fingerprint} * 0x9E3779B97F4A7C15ull) >> t.target_shift) | 1;
  return {bucket, (target - bucket) & t.bucket_mask, fingerprint};
}

inline unsigned lowest_set_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return static_cast<unsigned>(__builtin_ctzll(x));
#else
  unsigned n = 0;
  while ((x & 1) == 0) x >>= 1, ++n;
  return n;
#endif
}

inline void prefetch_inline_bucket(const uint8_t* first_byte) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(first_byte, 1, 3);
#else
  (void)first_byte;
#endif
}

inline uint64_t load_le64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// packed_table: the byte holding bucket's first bit, and that bit's place in it.
struct PackedBucket {
  uint8_t* first_byte;
  unsigned shift;
};
inline PackedBucket packed_bucket(const InlineTable& t, uint64_t bucket) {
  const uint64_t first_bit = bucket * t.bucket_bits;
  return {t.packed_table + (first_bit >> 3), static_cast<unsigned>(first_bit & 7)};
}

// packed_table: the bucket's fields at the bottom of a word, the next bucket's bits (or zeros) above them.
inline uint64_t packed_bucket_word(const InlineTable& t, uint64_t bucket) {
  const PackedBucket at = packed_bucket(t, bucket);
  return load_le64(at.first_byte) >> at.shift;
}

// A key's two buckets as the test reads them: each bucket's fields at the bottom of a 64-bit word (the bits
// above them are dropped by field_highs), the key's first bucket in lane 0 of an SSE2 register and its
// alternate in lane 1, or two words without SSE2.
#if CUCKOO_INLINE_SSE2
using BucketPair = __m128i;
#else
struct BucketPair {
  uint64_t first, alternate;
};
#endif

// The whole-byte buckets at a and b, each read with one 8-byte load from its first byte (the table keeps 8
// bytes of padding after its last bucket).
inline BucketPair load_bucket_pair(const uint8_t* a, const uint8_t* b) {
#if CUCKOO_INLINE_SSE2
  // Two plain loads, not _mm_loadh_pd: GCC cannot tell what that builtin reads, and then reloads the
  // InlineTable's fields in a caller's loop for every key.
  return _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a)),
                            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b)));
#else
  return {load_le64(a), load_le64(b)};
#endif
}

inline BucketPair bucket_pair(uint64_t first, uint64_t alternate) {
#if CUCKOO_INLINE_SSE2
  return _mm_set_epi64x(static_cast<long long>(alternate), static_cast<long long>(first));
#else
  return {first, alternate};
#endif
}

// A lookup's answer before it is a bool: true iff marks & mask has a bit set. Every path of inline_contains,
// the library's answer included, ends in these, so that the one test that makes the bool comes last and
// the caller's use of it (c += contains(key)) follows it directly.
struct Marks {
#if CUCKOO_INLINE_SSE2
  __m128i marks, mask;
#else
  uint64_t marks, mask;
#endif
};

// The marks of a fingerprint in a pair of buckets. In the word x = bucket ^ (fingerprint in every field),
// (x - field_lows) & ~x has the top bit of every zero field set, and maybe of fields above one (a
// borrow); the mask, field_highs, keeps those top bits. So some bit is set iff some field matches.
inline Marks marks_of(const InlineTable& t, BucketPair words, uint64_t fingerprint) {
  const uint64_t pattern = fingerprint * t.field_lows[0];
#if CUCKOO_INLINE_SSE2
  const __m128i x = _mm_xor_si128(words, _mm_set1_epi64x(static_cast<long long>(pattern)));
  const __m128i lows = _mm_load_si128(reinterpret_cast<const __m128i*>(t.field_lows));
  return {_mm_andnot_si128(x, _mm_sub_epi64(x, lows)),
          _mm_load_si128(reinterpret_cast<const __m128i*>(t.field_highs))};
#else
  const uint64_t x = words.first ^ pattern;
  const uint64_t y = words.alternate ^ pattern;
  return {((x - t.field_lows[0]) & ~x) | ((y - t.field_lows[0]) & ~y), t.field_highs[0]};
#endif
}

// The marks of an answer the library gave.
inline Marks marks_of(bool found) {
#if CUCKOO_INLINE_SSE2
  const __m128i all = _mm_set1_epi64x(-static_cast<long long>(found));
  return {all, all};
#else
  const uint64_t all = 0 - uint64_t{found};
  return {all, all};
#endif
}

inline bool any_marked(const Marks& m) {
#if CUCKOO_INLINE_SSE2 && defined(__SSE4_1__)
  return _mm_testz_si128(m.marks, m.mask) == 0;
#elif CUCKOO_INLINE_SSE2
  return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(m.marks, m.mask), _mm_setzero_si128())) != 0xFFFF;
#else
  return (m.marks & m.mask) != 0;
#endif
}

// A key's two buckets in a whole-byte table.
inline BucketPair load_bucket_pair(const InlineTable& t, const uint8_t* table, const InlineProbe& p) {
  return load_bucket_pair(table + p.bucket * t.bucket_bytes, table + p.alternate * t.bucket_bytes);
}

// A table with alternate_offsets: the alternate bucket's address, table + (alternate_offset - offset) when
// that is not negative, else table_end + it (both offsets are below 2^32: the difference is exact as a
// signed number). The subtraction's borrow picks the base by a conditional move: the condition is a hash's
// coin flip, which a branch would mispredict half the time, and GCC makes a branch of the plain expression.
inline const uint8_t* alternate_address(const InlineTable& t, uint64_t alternate_offset, uint64_t offset) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  uint64_t difference = alternate_offset;
  const uint8_t* base = t.table;
  __asm__(
      "{subq %[offset], %[difference]|sub %[difference], %[offset]}\n\t"
      "{cmovbq %[table_end], %[base]|cmovb %[base], %[table_end]}"
      : [difference] "+r"(difference), [base] "+r"(base)
      : [offset] "r"(offset), [table_end] "rm"(t.table_end)
      : "cc");
  return base + static_cast<int64_t>(difference);
#else
  const int64_t difference = static_cast<int64_t>(alternate_offset) - static_cast<int64_t>(offset);
  return (difference < 0 ? t.table_end : t.table) + difference;
#endif
}

// A table with alternate_offsets: docs/hashing.md's buckets as byte offsets.
inline BucketPair load_bucket_pair_by_offsets(const InlineTable& t, uint64_t key, uint64_t& fingerprint) {
  const uint64_t h = xxh3_u64<Xxh3Use::kForOneKey>(key, t.hash_premix);
  const uint64_t offset = hash_index(h, t.bucket_count) * t.bucket_bytes;
  fingerprint = hash_fingerprint(h, t.fingerprint_range);
  return load_bucket_pair(t.table + offset, alternate_address(t, t.alternate_offsets[fingerprint], offset));
}

// Puts the fingerprint in the first empty field of the bucket at bit `shift` of the 8 bytes at p (the
// lowest zero field: the lowest mark of the test above is exact), as the library does; false if the bucket
// is full. The field is zero, so ORing the fingerprint into it changes no other bit: the 8-byte store writes
// the bits around the bucket (its byte's bits below it, the bytes past it) back unchanged.
inline bool store_if_room(const InlineTable& t, uint8_t* p, unsigned shift, uint32_t fingerprint) {
  const uint64_t word = load_le64(p);
  const uint64_t bucket = word >> shift;
  const uint64_t empty = (bucket - t.field_lows[0]) & ~bucket & t.field_highs[0];
  if (empty == 0) return false;
  const unsigned first_empty = lowest_set_bit(empty) + 1 - t.fingerprint_bits;
  const uint64_t stored = word | (uint64_t{fingerprint} << (first_empty + shift));
  std::memcpy(p, &stored, sizeof stored);
  return true;
}

// contains(key) of the filter whose InlineTable is t: the inline code's answer, or library(key)'s where it
// hands the call over (an empty InlineTable, or the key's fingerprint is the parked victim's).
//
// The path of a table with alternate_offsets (a large one) is the expected one: the caller's loop then
// keeps it as its straight-line body, and the others go after it.
template <typename Library>
CUCKOO_INLINE_FLATTEN bool inline_contains(const InlineTable& t, uint64_t key, const Library& library) {
  BucketPair words;
  uint64_t fingerprint;
  if (CUCKOO_INLINE_LIKELY(t.alternate_offsets != nullptr)) {
    words = load_bucket_pair_by_offsets(t, key, fingerprint);
  } else if (t.table != nullptr) {
    const InlineProbe p = inline_probe(t, key);
    words = load_bucket_pair(t, t.table, p);
    fingerprint = p.fingerprint;
  } else if (t.pow2_table != nullptr) {
    const InlineProbe p = inline_probe_pow2(t, key);
    words = load_bucket_pair(t, t.pow2_table, p);
    fingerprint = p.fingerprint;
  } else if (t.packed_table != nullptr) {
    const InlineProbe p = inline_probe(t, key);
    words = bucket_pair(packed_bucket_word(t, p.bucket), packed_bucket_word(t, p.alternate));
    fingerprint = p.fingerprint;
  } else {
    // A filter the inline code does not serve, before hashing (it hashes once, in the library): its
    // victim_fingerprint is kEveryCallToTheLibrary, which hands the call over below.
    words = bucket_pair(0, 0);
    fingerprint = t.victim_fingerprint;
  }
  const Marks marks = CUCKOO_INLINE_UNLIKELY(fingerprint == t.victim_fingerprint) ? marks_of(library(key))
                                                                                  : marks_of(t, words, fingerprint);
  return any_marked(marks);
}

// insert(key) of the filter whose InlineTable is t, when the key fits in one of its two buckets and no
// victim is parked: returns true once it is stored; false hands the call to the library, with nothing
// changed. Every table takes inline_probe here, which serves power-of-two tables too.
CUCKOO_INLINE_FLATTEN bool inline_insert(const InlineTable& t, uint64_t key) {
  if (t.victim_fingerprint != 0) return false;  // also an empty InlineTable's
  const InlineProbe p = inline_probe(t, key);
  uint8_t* const table = t.table != nullptr ? t.table : t.pow2_table;
  if (CUCKOO_INLINE_LIKELY(table != nullptr)) {
    uint8_t* alternate = table + p.alternate * t.bucket_bytes;
    prefetch_inline_bucket(alternate);
    if (!store_if_room(t, table + p.bucket * t.bucket_bytes, 0, p.fingerprint) &&
        !store_if_room(t, alternate, 0, p.fingerprint))
      return false;
  } else {
    const PackedBucket alternate = packed_bucket(t, p.alternate);
    prefetch_inline_bucket(alternate.first_byte);
    const PackedBucket bucket = packed_bucket(t, p.bucket);
    if (!store_if_room(t, bucket.first_byte, bucket.shift, p.fingerprint) &&
        !store_if_room(t, alternate.first_byte, alternate.shift, p.fingerprint))
      return false;
  }
  ++*t.size;
  return true;
}

}  // namespace cuckoo::internal
