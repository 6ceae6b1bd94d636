// wasm/protocol.h: the blocks of memory that js/ and wasm/ exchange, written once here with their layout
// checked at compile time. js/native.js reads them by the offsets in its kConfigLayout, and
// js-tests/protocol.test.js checks those against what the module reports (cuckoo_protocol, node flavour),
// so a field added, moved or resized on one side only fails a test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

namespace cuckoo_wasm {

// A filter's resolved configuration (cuckoo::Config), as cuckoo_config returns it.
struct ConfigBlock {
  uint32_t bucket_size;
  uint32_t fingerprint_bits;
  uint32_t max_kicks;
  uint32_t semi_sort;  // 0 or 1
  uint32_t growable;   // 0 or 1
  uint32_t reserved;   // 0: keeps the 64-bit fields 8-aligned
  uint64_t seed;
  uint64_t bucket_count;      // the first level's
  uint64_t max_memory_bytes;  // 0: no limit
};

static_assert(offsetof(ConfigBlock, bucket_size) == 0, "js/native.js kConfigLayout");
static_assert(offsetof(ConfigBlock, fingerprint_bits) == 4, "js/native.js kConfigLayout");
static_assert(offsetof(ConfigBlock, max_kicks) == 8, "js/native.js kConfigLayout");
static_assert(offsetof(ConfigBlock, semi_sort) == 12, "js/native.js kConfigLayout");
static_assert(offsetof(ConfigBlock, growable) == 16, "js/native.js kConfigLayout");
static_assert(offsetof(ConfigBlock, seed) == 24, "js/native.js kConfigLayout");
static_assert(offsetof(ConfigBlock, bucket_count) == 32, "js/native.js kConfigLayout");
static_assert(offsetof(ConfigBlock, max_memory_bytes) == 40, "js/native.js kConfigLayout");
static_assert(sizeof(ConfigBlock) == 48, "js/native.js kConfigLayout");

// cuckoo_create's parameter for an Options field of type T (wasm/bindings.cpp): its value type, with a
// bool as an int. What JS passes for it (js/options.js's kOptions) follows from the wasm type.
template <typename T>
struct Param {
  using type = T;
};
template <typename T>
struct Param<std::optional<T>> : Param<T> {};
template <>
struct Param<bool> {
  using type = int;
};
template <typename T>
using param_t = typename Param<T>::type;

// The wasm type of a parameter, as cuckoo_option_param reports it: a JS number (i32, f64) or a BigInt (i64).
enum ParamKind : uint32_t { kI32 = 1,
                            kI64 = 2,
                            kF64 = 3 };
template <typename T>
constexpr ParamKind param_kind() {
  using P = param_t<T>;
  static_assert(std::is_same_v<P, int> || std::is_same_v<P, unsigned> || std::is_same_v<P, uint64_t> ||
                    std::is_same_v<P, double>,
                "an option type cuckoo_create cannot take: add it to Param and to js/options.js");
  return std::is_same_v<P, double> ? kF64 : sizeof(P) == 8 ? kI64
                                                           : kI32;
}

}  // namespace cuckoo_wasm
