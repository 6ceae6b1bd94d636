// cuckoo/export.h: CUCKOO_API marks what a shared libcuckoo exports.
//
// The library is compiled with hidden visibility (core/CMakeLists.txt), so a shared build exports only
// what is marked: the public classes and functions of cuckoo/*.h, and the few internal ones the repo's
// own tests and benchmarks call across the library boundary (marked in core/src; not a stable API).
// Without it, libcuckoo.so exported ~4,000 symbols: every table instantiation and inlined helper.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define CUCKOO_API __attribute__((visibility("default")))
#else
#define CUCKOO_API
#endif
