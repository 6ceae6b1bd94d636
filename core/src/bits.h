// core/src/bits.h: little-endian bit-stream access shared by the packed tables.
//
// A table is one little-endian bit stream: field k of width w occupies bits [k*w, (k+1)*w), bit j of the
// stream being bit (j % 8) of byte j / 8. Fields are read with one unaligned 64-bit load, so a read of up to
// 57 bits at any bit offset touches only bytes [offset/8, offset/8 + 8): tables keep 8 zero bytes of
// padding after the stream (kTablePadding) that are never serialized.
#pragma once

#include <cstdint>
#include <cstring>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cuckoo assumes a little-endian host (x86-64, AArch64, WebAssembly)"
#endif

// SSE2 is part of x86-64, so using it needs no run-time dispatch.
#if defined(__SSE2__) && !defined(__wasm__)
#include <emmintrin.h>
#define CUCKOO_HAVE_SSE2 1
#else
#define CUCKOO_HAVE_SSE2 0
#endif

namespace cuckoo::internal {

inline constexpr size_t kTablePadding = 8;

// Whether the bits of a stream's last byte past its last field (a table of used_bits in stream_bytes bytes)
// are zero, as the format requires: a deserialized table that passed would otherwise serialize differently.
inline bool spare_bits_are_zero(const uint8_t* stream, size_t stream_bytes, uint64_t used_bits) {
  const unsigned spare = static_cast<unsigned>(stream_bytes * 8 - used_bits);
  return spare == 0 || (stream[stream_bytes - 1] >> (8 - spare)) == 0;
}

// Inline everything a hot function calls (the XXH3 short-input path, the bucket probes): a lookup is two
// cache misses, and the fewer instructions around them, the more lookups the CPU keeps in flight.
// CUCKOO_NOINLINE keeps a rare slow path (the insert's kick walk) out of its hot caller.
#if defined(__GNUC__) || defined(__clang__)
#define CUCKOO_FLATTEN __attribute__((flatten))
#define CUCKOO_INLINE inline __attribute__((always_inline))
#define CUCKOO_NOINLINE __attribute__((noinline))
#else
#define CUCKOO_FLATTEN
#define CUCKOO_INLINE inline
#define CUCKOO_NOINLINE
#endif

// Hides a constant from the optimizer, so that x * opaque(c) stays one multiply. GCC expands a multiply by
// a constant such as 0x001001001001 (a fingerprint broadcast to every field) into a chain of shifts and
// adds: less latency, more instructions. A lookup is two cache misses, and the number of lookups the CPU
// keeps in flight is set by their instruction count, so one imul is the better trade.
// WebAssembly engines lower a multiply themselves, and wasm has no inline asm, so there it is a no-op.
template <typename T>
CUCKOO_INLINE T opaque(T value) {
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__wasm__)
  __asm__(""
          : "+r"(value));
#endif
  return value;
}

inline uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline uint16_t load_u16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store_u64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, sizeof v); }

constexpr uint64_t low_mask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

// Reads `width` (<= 57) bits starting at bit `pos`.
inline uint64_t read_bits(const uint8_t* base, uint64_t pos, unsigned width) {
  return (load_u64(base + (pos >> 3)) >> (pos & 7)) & low_mask(width);
}

// Writes the low `width` (<= 57) bits of value at bit `pos`, leaving neighbouring bits alone.
inline void write_bits(uint8_t* base, uint64_t pos, unsigned width, uint64_t value) {
  uint8_t* p = base + (pos >> 3);
  const unsigned shift = pos & 7;
  const uint64_t mask = low_mask(width) << shift;
  store_u64(p, (load_u64(p) & ~mask) | ((value << shift) & mask));
}

// SWAR zero-field test over a word of equal-width fields, lo having bit 0 of each field set: the result has
// the top bit of every zero field set. A borrow out of a zero field can also mark the field above it, so
// only the lowest mark is exact, but any mark means some field is zero. Callers mask with the fields' top
// bits (lo << (width - 1)), which also drops whatever the word holds above its fields.
inline uint64_t zero_field_marks(uint64_t x, uint64_t lo) { return (x - lo) & ~x; }

#if CUCKOO_HAVE_SSE2
// zero_field_marks on both 64-bit lanes of x, masked with hi: the result is nonzero iff some field of
// either lane is zero. The bucket probes use it to test a key's two buckets at once. Every instruction
// here waits for the lookup's cache misses, so it is kept short: a byte compare with zero and a movemask
// (nonzero iff a byte of the marks is) instead of folding the high lane onto the low one and moving it
// to a general register.
inline uint64_t any_zero_field_2x64(__m128i x, uint64_t lo, uint64_t hi) {
  const __m128i marks = _mm_and_si128(_mm_andnot_si128(x, _mm_sub_epi64(x, _mm_set1_epi64x(static_cast<long long>(lo)))),
                                      _mm_set1_epi64x(static_cast<long long>(hi)));
  return static_cast<uint64_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(marks, _mm_setzero_si128())) ^ 0xFFFF);
}

// Two 64-bit loads from unrelated addresses, as the lanes of one register: movq, then movhpd straight
// into the high lane (one instruction fewer than two movq and an unpack).
inline __m128i load_2x64(const uint8_t* a, const uint8_t* b) {
  return _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a))),
                                       reinterpret_cast<const double*>(b)));
}
#endif

inline unsigned count_trailing_zeros(uint64_t x) { return static_cast<unsigned>(__builtin_ctzll(x)); }

// Always inlined, like every function that calls it: GCC deems a function that only prefetches "pure"
// (it has no effect the program can observe) and deletes calls to it that are not inlined.
CUCKOO_INLINE void prefetch(const void* p) { __builtin_prefetch(p, 0, 3); }

// The first and the last byte a table's probe of one bucket loads (PackedTable::probe_span,
// SemiSortedTable::probe_span): the batch pipelines prefetch the cache lines of both.
struct ByteSpan {
  const uint8_t* first;
  const uint8_t* last;
};

// Both bytes, unconditionally: testing whether they share a line costs more (a mispredicted branch) than
// a redundant prefetch of a line in flight.
CUCKOO_INLINE void prefetch(const ByteSpan& span) {
  prefetch(span.first);
  prefetch(span.last);
}

}  // namespace cuckoo::internal
