// cuckoo/internal/key_traits.h: which argument types cuckoo::CuckooFilter's key overloads accept.
// Not part of the API: included by cuckoo/filter.h, whose class comment states the key forms for users.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <utility>

namespace cuckoo::internal {

template <typename T>
using DataOf = decltype(std::data(std::declval<const T&>()));

template <typename T>
using SizeOf = decltype(std::size(std::declval<const T&>()));

template <typename Element>
constexpr bool is_text_char() {
#if defined(__cpp_char8_t)
  if constexpr (std::is_same_v<Element, char8_t>) return true;
#endif
  return std::is_same_v<Element, char>;
}

// Whether T is a contiguous range of single-byte elements (char, signed or unsigned char, std::byte,
// char8_t) with an unsigned size: what the byte-range overloads take. Left out:
// - arrays of char or char8_t: a string literal is one, and its size counts the terminating NUL ("abc"
//   must stay the 3-byte std::string_view key; arrays of unsigned char or std::byte are all their bytes);
// - anything that converts to std::string_view (std::string), which the std::string_view overload takes;
// - anything that converts to uint64_t, which the integer overload takes;
// - volatile elements, which cannot be hashed as plain memory.
template <typename T, typename = void>
struct IsByteRange : std::false_type {};
template <typename T>
struct IsByteRange<T, std::void_t<DataOf<T>, SizeOf<T>>> {
  using Pointee = std::remove_pointer_t<DataOf<T>>;
  using Element = std::remove_cv_t<Pointee>;
  static constexpr bool value =
      std::is_pointer_v<DataOf<T>> && !std::is_volatile_v<Pointee> && std::is_unsigned_v<SizeOf<T>> &&
      !(std::is_array_v<T> && is_text_char<Element>()) && !std::is_convertible_v<const T&, std::string_view> &&
      !std::is_convertible_v<const T&, uint64_t> &&
      (is_text_char<Element>() || std::is_same_v<Element, signed char> || std::is_same_v<Element, unsigned char> ||
       std::is_same_v<Element, std::byte>);
};

// Enables the byte-range overloads.
template <typename T>
using IfByteRange = std::enable_if_t<IsByteRange<T>::value>;

// Enables the deleted overloads: float, double and long double keys, and nullptr.
template <typename T>
using IfNotAKey = std::enable_if_t<std::is_floating_point_v<T> || std::is_null_pointer_v<T>>;

}  // namespace cuckoo::internal
