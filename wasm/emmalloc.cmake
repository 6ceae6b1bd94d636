# wasm/emmalloc.cmake (the web flavour only): the module's malloc is Emscripten's emmalloc, compiled from the
# toolchain's own source (system/lib/emmalloc.c) with its fit tests made overflow-safe, in place of the
# default dlmalloc, which takes ~2.7 KB more of every page's download.
#
# Why the fix: emmalloc tests whether a request fits a free region as `start + size > end` on 32-bit
# pointers. In a memory grown to near 4 GiB, `start + size` wraps past 2^32 for a region near the top, the
# test passes, and malloc returns a block running past the end of memory over the heap's own bookkeeping
# (Emscripten 3.1.6; js-tests/errors.test.js fills the memory to reach it). The two tests are rewritten to
# compare sizes, which cannot wrap. If a toolchain's emmalloc.c no longer has either line, the build stays
# with dlmalloc (and says so) rather than link an allocator not known to be safe.
#
# The object defines every symbol of the toolchain's emmalloc (malloc, free, memalign, ...), so the linker
# takes it and never extracts the library's emmalloc; -sMALLOC=emmalloc still links the library's sbrk.
set(cuckoo_emmalloc_source "${EMSCRIPTEN_ROOT_PATH}/system/lib/emmalloc.c")
set(cuckoo_emmalloc_fit "if (payloadStartPtrAligned + size > payloadEndPtr)")
set(cuckoo_emmalloc_fit_safe
  "if (payloadStartPtrAligned < payloadStartPtr || payloadStartPtrAligned > payloadEndPtr || size > (size_t)(payloadEndPtr - payloadStartPtrAligned))")
set(cuckoo_emmalloc_grow "if (newNextRegionStartPtr + sizeof(Region) <= nextRegionEndPtr)")
set(cuckoo_emmalloc_grow_safe "if (size + sizeof(Region) <= (size_t)(nextRegionEndPtr - (uint8_t*)region))")

set(cuckoo_emmalloc OFF)
if(EXISTS "${cuckoo_emmalloc_source}")
  file(READ "${cuckoo_emmalloc_source}" cuckoo_emmalloc_text)
  string(FIND "${cuckoo_emmalloc_text}" "${cuckoo_emmalloc_fit}" cuckoo_fit_at)
  string(FIND "${cuckoo_emmalloc_text}" "${cuckoo_emmalloc_grow}" cuckoo_grow_at)
  if(cuckoo_fit_at GREATER_EQUAL 0 AND cuckoo_grow_at GREATER_EQUAL 0)
    string(REPLACE "${cuckoo_emmalloc_fit}" "${cuckoo_emmalloc_fit_safe}" cuckoo_emmalloc_text "${cuckoo_emmalloc_text}")
    string(REPLACE "${cuckoo_emmalloc_grow}" "${cuckoo_emmalloc_grow_safe}" cuckoo_emmalloc_text "${cuckoo_emmalloc_text}")
    file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/emmalloc_fixed.c" "${cuckoo_emmalloc_text}")
    set(cuckoo_emmalloc ON)
  endif()
endif()

if(cuckoo_emmalloc)
  enable_language(C)
  add_library(cuckoo_emmalloc OBJECT "${CMAKE_CURRENT_BINARY_DIR}/emmalloc_fixed.c")
  # As Emscripten builds its own (tools/system_libs.py, libmalloc): no builtins (malloc must not be
  # recognised inside malloc), no assertions, no errno.
  target_compile_definitions(cuckoo_emmalloc PRIVATE NDEBUG EMSCRIPTEN_NO_ERRNO MALLOC_FAILURE_ACTION=)
  target_compile_options(cuckoo_emmalloc PRIVATE -fno-builtin -Oz -flto -mbulk-memory -mnontrapping-fptoint -msign-ext)
  target_sources(cuckoo_wasm PRIVATE $<TARGET_OBJECTS:cuckoo_emmalloc>)
  target_link_options(cuckoo_wasm PRIVATE -sMALLOC=emmalloc)
else()
  message(WARNING "cuckoo: ${cuckoo_emmalloc_source} is missing or not the emmalloc this build knows how to fix; the web module keeps dlmalloc (larger)")
endif()
