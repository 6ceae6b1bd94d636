// cuckoo/export.h: CUCKOO_API marks what a shared libcuckoo exports.
//
// The library is compiled with hidden visibility (core/CMakeLists.txt), so a shared build exports only
// what is marked: the public classes and functions of cuckoo/*.h, and two internal classes the repo's
// own tests call across the library boundary (AlignedBuffer, SemiSortCodec in core/src; not a stable
// API). Without it, libcuckoo.so exported ~4,000 symbols: every table instantiation and inlined helper.
// The marks are the same in a static build, so a consumer's shared object that links libcuckoo.a
// exports the public API too unless it links with -Wl,--exclude-libs,libcuckoo.a.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define CUCKOO_API __attribute__((visibility("default")))
#else
#define CUCKOO_API
#endif
