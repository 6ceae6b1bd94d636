// wasm/factory.cpp: see factory.h. Each wrapper catches, records and returns nullptr.
#include "factory.h"

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include "level_hasher.h"  // core/src: the growth schedule, for the size of the level that did not fit
#include "option_names.h"  // core/src: resolve() naming the options as a front end does

namespace cuckoo_wasm {

namespace {

// The options as JS spells them (js/options.js's kOptions), for the core's messages about them.
#define CUCKOO_OPTION_JS_NAME(field, js_name) #js_name,
constexpr cuckoo::OptionSpelling kJsOptionNames = {CUCKOO_OPTIONS(CUCKOO_OPTION_JS_NAME)};
#undef CUCKOO_OPTION_JS_NAME

int g_kind = kNoError;
// The last error's message, in a fixed buffer rather than a std::string: recording that memory ran out
// must not allocate (a second std::bad_alloc thrown from the handler would reach JS as a bare
// WebAssembly.Exception instead of a RangeError).
char g_message[2048] = "";

// Appends text to the message, cut to fit the buffer (NUL-terminated).
void append(const char* text) {
  const size_t used = std::strlen(g_message);
  std::strncat(g_message, text, sizeof g_message - 1 - used);
}

void record(int kind, const char* message) {
  g_kind = kind;
  g_message[0] = '\0';
  append(message);
}

// The table size a failed allocation asked for (0 if unknown), for the out-of-memory message.
uint64_t g_wanted_bytes = 0;

// Appends n in decimal.
void append_unsigned(uint64_t n) {
  char text[21];
  char* p = text + sizeof text;
  *--p = '\0';
  do *--p = static_cast<char>('0' + n % 10);
  while ((n /= 10) != 0);
  append(p);
}

// Appends bytes / 2^shift with two decimals, rounded half to even as printf("%.2f") rounds the exact value.
void append_fixed2(uint64_t bytes, unsigned shift) {
  const uint64_t unit = uint64_t{1} << shift;
  const uint64_t scaled = (bytes & (unit - 1)) * 100;  // < 100 * 2^20: no overflow
  uint64_t hundredths = (bytes >> shift) * 100 + (scaled >> shift);
  const uint64_t rest = scaled & (unit - 1);
  if (rest > unit / 2 || (rest == unit / 2 && hundredths % 2 == 1)) ++hundredths;
  append_unsigned(hundredths / 100);
  const char decimals[] = {'.', static_cast<char>('0' + hundredths / 10 % 10), static_cast<char>('0' + hundredths % 10), '\0'};
  append(decimals);
}

// Appends `what` and a table size as the out-of-memory messages show it ("'s 1.27 MiB table"); nothing if
// the size is unknown (0).
void append_table(const char* what, uint64_t bytes) {
  if (bytes == 0) return;
  append(what);
  if (bytes >= (1 << 20)) {
    append(" ");
    append_fixed2(bytes, 20);
    append(" MiB table");
  } else if (bytes >= 1024) {
    append(" ");
    append_fixed2(bytes, 10);
    append(" KiB table");
  } else {
    append(" ");
    append_unsigned(bytes);
    append("-byte table");
  }
}

// Both limits, since either can be the one hit: a table is one block under 2 GiB (core/src/aligned_buffer.cpp
// refuses larger ones in WebAssembly, whichever malloc the module links), however much of the 4 GiB is free.
constexpr char kMemoryLimits[] =
    "WebAssembly memory is 4 GiB at most, for all filters, and a table under 2 GiB";

void record_out_of_memory() {
  g_message[0] = '\0';
  append("cuckoo: not enough memory for this filter");
  append_table("'s", g_wanted_bytes);
  append(" (");
  append(kMemoryLimits);
  append(")");
  g_kind = kOutOfMemory;
}

#if CUCKOO_WASM_FLAVOR_NODE
// The last OptionError's option (-1: none), value and message naming each option by its placeholder.
int g_option = -1;
std::string g_option_value;
std::string g_option_text;

void record_option(const cuckoo::OptionError& e) {
  g_option = static_cast<int>(e.option());
  g_option_value = e.value();
  g_option_text = e.message(cuckoo::internal::kMessageNames);
}
#endif

// Runs make() and converts whatever it throws into an error record.
template <typename Make>
cuckoo::CuckooFilter* guarded(Make make) {
  clear_error();
  g_wanted_bytes = 0;
  try {
    return make();
  } catch (const cuckoo::FormatError& e) {
    record(kFormat, e.what());
#if CUCKOO_WASM_FLAVOR_NODE
  } catch (const cuckoo::OptionError& e) {
    record(kInvalidArgument, e.message(kJsOptionNames).c_str());
    record_option(e);
#endif
  } catch (const std::invalid_argument& e) {
    record(kInvalidArgument, e.what());
  } catch (const std::bad_alloc&) {
    record_out_of_memory();
  } catch (const std::exception& e) {
    record(kOther, e.what());
  } catch (...) {
    record(kOther, "cuckoo: unknown C++ exception");
  }
  return nullptr;
}

}  // namespace

cuckoo::CuckooFilter* create_filter(const cuckoo::Options& options, bool capacity_given) {
  return guarded([&] {
  // The core's checks; the constructor then resolves the same options without a throw. The node module's
  // errors are OptionErrors (guarded() names the options as JS does); the web module's name them so.
#if CUCKOO_WASM_FLAVOR_NODE
    const cuckoo::OptionSpelling& names = cuckoo::internal::kMessageNames;
#else
    const cuckoo::OptionSpelling& names = kJsOptionNames;
#endif
    g_wanted_bytes = cuckoo::internal::resolve(options, names, capacity_given).table_bytes();
    return new cuckoo::CuckooFilter(options);
  });
}

bool merge_into(cuckoo::CuckooFilter& target, const cuckoo::CuckooFilter& source) {
  // A shape mismatch (std::invalid_argument) and a union that does not fit (std::length_error) are both
  // plain Errors in JS, not RangeErrors: no option is out of range. Out of memory for the copy of the
  // table is the usual RangeError.
  clear_error();
  g_wanted_bytes = target.config().table_bytes();
  try {
    target.merge(source);
    return true;
  } catch (const std::bad_alloc&) {
    record_out_of_memory();
  } catch (const std::exception& e) {
    record(kOther, e.what());
  }
  return false;
}

const char* js_option_name(unsigned option) {
  return option < kJsOptionNames.size() ? kJsOptionNames[option] : nullptr;
}

bool run_recorded(void (*body)(void* context), void* context) {
  static cuckoo::CuckooFilter* const kDone = reinterpret_cast<cuckoo::CuckooFilter*>(uintptr_t{1});
  return guarded([&] {
           body(context);
           return kDone;
         }) != nullptr;
}

int last_error_kind() { return g_kind; }
uintptr_t last_error_message() { return reinterpret_cast<uintptr_t>(g_message); }

#if CUCKOO_WASM_FLAVOR_NODE
int last_error_option() { return g_option; }
const char* last_error_option_value() { return g_option_value.c_str(); }
const char* last_error_option_text() { return g_option_text.c_str(); }
#endif

void clear_error() {
  g_kind = kNoError;
  g_message[0] = '\0';
#if CUCKOO_WASM_FLAVOR_NODE
  g_option = -1;
#endif
}

void record_growth_out_of_memory(const cuckoo::CuckooFilter& filter) {
  // The level that did not fit is the next one: level_config() is the growth schedule itself.
  const uint64_t wanted = cuckoo::internal::level_config(filter.config(), filter.levels()).table_bytes();
  g_message[0] = '\0';
  append("cuckoo: not enough memory to grow this filter:");
  append_table(" its next level's", wanted);
  append(" does not fit (nothing was lost; ");
  append(kMemoryLimits);
  append(")");
  g_kind = kOutOfMemory;
}

}  // namespace cuckoo_wasm
