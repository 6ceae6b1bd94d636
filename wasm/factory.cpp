// wasm/factory.cpp: see factory.h. Each wrapper catches, records and returns nullptr.
#include "factory.h"

#include <exception>
#include <new>
#include <stdexcept>

namespace cuckoo_wasm {

namespace {

int g_kind = kNoError;
std::string g_message;

void record(int kind, const char* message) {
  g_kind = kind;
  g_message = message;
}

// Runs make() and converts whatever it throws into an error record.
template <typename Make>
cuckoo::CuckooFilter* guarded(Make make) {
  g_kind = kNoError;
  g_message.clear();
  try {
    return make();
  } catch (const cuckoo::FormatError& e) {
    record(kFormat, e.what());
  } catch (const std::invalid_argument& e) {
    record(kInvalidArgument, e.what());
  } catch (const std::bad_alloc&) {
    record(kOutOfMemory, "cuckoo: not enough memory for this filter (WebAssembly memory is limited to 4 GiB)");
  } catch (const std::exception& e) {
    record(kOther, e.what());
  } catch (...) {
    record(kOther, "cuckoo: unknown C++ exception");
  }
  return nullptr;
}

}  // namespace

cuckoo::CuckooFilter* create_filter(const cuckoo::Options& options) {
  return guarded([&] { return new cuckoo::CuckooFilter(options); });
}

cuckoo::CuckooFilter* deserialize_filter(uintptr_t data, size_t size) {
  return guarded([&] {
    return new cuckoo::CuckooFilter(
        cuckoo::CuckooFilter::deserialize(reinterpret_cast<const void*>(data), size));
  });
}

int last_error_kind() { return g_kind; }
std::string last_error_message() { return g_message; }

uintptr_t address_of(const cuckoo::CuckooFilter& filter) { return reinterpret_cast<uintptr_t>(&filter); }

cuckoo::Config config_of(const cuckoo::CuckooFilter& filter) { return filter.config(); }

void serialize_into(const cuckoo::CuckooFilter& filter, uintptr_t out) {
  filter.serialize_to(reinterpret_cast<uint8_t*>(out));
}

}  // namespace cuckoo_wasm
