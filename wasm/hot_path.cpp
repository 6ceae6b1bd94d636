// wasm/hot_path.cpp: the per-key and batch calls, as raw exports (bindings.cpp has the cold ones).
//
// JS writes the key into a scratch buffer in wasm memory (short ASCII strings byte by byte, everything
// else with TextEncoder.encodeInto: js/stage.js) and passes (filter address, key address, length), which
// takes a fraction of the time of a binding that copies the key into a std::string. Integer keys come
// as two u32 halves, so JS never builds a BigInt; they hash exactly like the native uint64_t overloads
// (8 little-endian bytes).
// Nothing here allocates or throws.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <string_view>

#include "cuckoo/cuckoo.h"
#include "factory.h"

using cuckoo::CuckooFilter;

namespace {

inline uint64_t join(uint32_t lo, uint32_t hi) { return (uint64_t{hi} << 32) | lo; }

// Batches arrive as one byte buffer plus n + 1 offsets (key i is data[offsets[i], offsets[i + 1])).
// They are viewed as string_views in blocks, so that the core's insert_many/contains_many can hash a window
// ahead and prefetch both buckets of each key.
constexpr size_t kViewBlock = 512;

size_t fill_views(const uint8_t* data, const uint32_t* offsets, size_t n, std::string_view* views) {
  for (size_t i = 0; i < n; ++i) {
    views[i] = std::string_view(reinterpret_cast<const char*>(data) + offsets[i], offsets[i + 1] - offsets[i]);
  }
  return n;
}

// Hands the keys to insert_block(views, m) in blocks of at most kViewBlock, viewed in `views`, in order, and
// stops after the first block of which it handled fewer than m; returns how many keys it handled.
template <typename InsertBlock>
size_t insert_in_blocks(const uint8_t* data, const uint32_t* offsets, size_t n, std::string_view* views,
                        InsertBlock insert_block) {
  size_t done = 0;
  while (done < n) {
    const size_t m = fill_views(data, offsets + done, n - done < kViewBlock ? n - done : kViewBlock, views);
    const size_t handled = insert_block(views, m);
    done += handled;
    if (handled < m) break;
  }
  return done;
}

// The result of a single insert: 1 stored, 0 refused (full, or a key repeated 2b times), or kOutOfMemory.
constexpr int kOutOfMemory = -1;

template <typename Insert>
int guarded_insert(CuckooFilter* f, Insert insert) {
  try {
    return insert();
  } catch (const std::bad_alloc&) {
    cuckoo_wasm::record_growth_out_of_memory(*f);
    return kOutOfMemory;
  }
}

}  // namespace

extern "C" {

// 1 if stored, 0 if refused, -1 if a growing filter's new level did not fit (the error is recorded).
EMSCRIPTEN_KEEPALIVE int cuckoo_insert_bytes(CuckooFilter* f, const uint8_t* key, size_t n) {
  return guarded_insert(f, [&] { return static_cast<int>(f->insert(key, n)); });
}
EMSCRIPTEN_KEEPALIVE int cuckoo_contains_bytes(const CuckooFilter* f, const uint8_t* key, size_t n) {
  return f->contains(key, n);
}
EMSCRIPTEN_KEEPALIVE int cuckoo_erase_bytes(CuckooFilter* f, const uint8_t* key, size_t n) {
  return f->erase(key, n);
}
EMSCRIPTEN_KEEPALIVE uint32_t cuckoo_count_bytes(const CuckooFilter* f, const uint8_t* key, size_t n) {
  return static_cast<uint32_t>(f->count(key, n));
}

EMSCRIPTEN_KEEPALIVE int cuckoo_insert_u64(CuckooFilter* f, uint32_t lo, uint32_t hi) {
  return guarded_insert(f, [&] { return static_cast<int>(f->insert(join(lo, hi))); });
}
EMSCRIPTEN_KEEPALIVE int cuckoo_contains_u64(const CuckooFilter* f, uint32_t lo, uint32_t hi) {
  return f->contains(join(lo, hi));
}
EMSCRIPTEN_KEEPALIVE int cuckoo_erase_u64(CuckooFilter* f, uint32_t lo, uint32_t hi) {
  return f->erase(join(lo, hi));
}
EMSCRIPTEN_KEEPALIVE uint32_t cuckoo_count_u64(const CuckooFilter* f, uint32_t lo, uint32_t hi) {
  return static_cast<uint32_t>(f->count(join(lo, hi)));
}

// Inserts keys in order, stops at the first that is refused; returns how many were inserted. When that is
// fewer than n, the error record says why: kOutOfMemory if a growing filter's new level did not fit,
// nothing (kNoError) if the key was refused as a single insert would refuse it.
EMSCRIPTEN_KEEPALIVE size_t cuckoo_insert_many(CuckooFilter* f, const uint8_t* data, const uint32_t* offsets,
                                               size_t n) {
  cuckoo_wasm::clear_error();
  const uint64_t size_before = f->size();
  std::string_view views[kViewBlock];
  try {
    return insert_in_blocks(data, offsets, n, views, [f](const std::string_view* block, size_t m) {
      return f->insert_many(block, m);
    });
  } catch (const std::bad_alloc&) {
    // insert_many stores keys in order and counts each one in size(); the one whose growth failed is not
    // stored, so the keys stored by this call are exactly the growth in size().
    cuckoo_wasm::record_growth_out_of_memory(*f);
    return static_cast<size_t>(f->size() - size_before);
  }
}

#if CUCKOO_WASM_FLAVOR_NODE
// The node module only (js/batch.node.js): insert_if_absent on each key in order (a key repeated in the
// batch is present the second time); stops at the first key refused and returns how many keys came
// before it, stored or present. If a growing filter's new level did not fit, the error record says so
// (kOutOfMemory) and the count is of no use.
EMSCRIPTEN_KEEPALIVE size_t cuckoo_insert_many_if_absent(CuckooFilter* f, const uint8_t* data,
                                                         const uint32_t* offsets, size_t n) {
  cuckoo_wasm::clear_error();
  std::string_view views[kViewBlock];
  try {
    return insert_in_blocks(data, offsets, n, views, [f](const std::string_view* block, size_t m) {
      return f->insert_many_if_absent(block, m);
    });
  } catch (const std::bad_alloc&) {
    cuckoo_wasm::record_growth_out_of_memory(*f);
    return 0;
  }
}
#endif

// out[i] = 1 if key i may be in the set, else 0.
EMSCRIPTEN_KEEPALIVE void cuckoo_contains_many(const CuckooFilter* f, const uint8_t* data,
                                               const uint32_t* offsets, size_t n, uint8_t* out) {
  std::string_view views[kViewBlock];
  for (size_t done = 0; done < n; done += kViewBlock) {
    const size_t m = fill_views(data, offsets + done, n - done < kViewBlock ? n - done : kViewBlock, views);
    f->contains_many(views, m, out + done);
  }
}

}  // extern "C"
