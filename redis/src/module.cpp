// redis/src/module.cpp: the entry point Redis calls on `--loadmodule <path> [NAME value]...`.
#include <string_view>

#include "cf_value.h"
#include "commands.h"
#include "module_api.h"

namespace {

constexpr int kModuleVersion = 200;                // 0.2.0, the library's version
constexpr long long kMaxChunkBytes = 512LL << 20;  // Redis's default proto-max-bulk-len

// Module arguments, name-value pairs:
//   CHUNK_BYTES n       1..512 MiB: the largest piece CF.SCANDUMP answers and AOF rewrite emits;
//   MAX_FILTER_BYTES n  0 (no limit) or more: the most bytes a growing filter's tables may take.
bool parse_arguments(rm::Ctx* ctx, rm::String** argv, int argc) {
  for (int i = 0; i < argc; i += 2) {
    size_t size = 0;
    const char* text = rm::StringPtrLen(argv[i], &size);
    const std::string_view name(text, size);
    long long value = 0;
    const bool number = i + 1 < argc && rm::StringToLongLong(argv[i + 1], &value) == rm::kOk;
    if (name == "CHUNK_BYTES" && number && value >= 1 && value <= kMaxChunkBytes) {
      cuckoo_redis::g_chunk_bytes = static_cast<size_t>(value);
    } else if (name == "MAX_FILTER_BYTES" && number && value >= 0) {
      cuckoo_redis::g_max_filter_bytes = static_cast<uint64_t>(value);
    } else {
      rm::Log(ctx, "warning",
              "cuckoo: unknown or invalid module argument %.*s (expected CHUNK_BYTES 1..%lld, MAX_FILTER_BYTES >= 0)",
              static_cast<int>(size), name.data(), kMaxChunkBytes);
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int RedisModule_OnLoad(rm::Ctx* ctx, rm::String** argv, int argc) {
  if (rm::init(ctx, "cuckoo", kModuleVersion) != rm::kOk) return rm::kErr;
  if (!parse_arguments(ctx, argv, argc)) return rm::kErr;
  if (!cuckoo_redis::register_type(ctx)) return rm::kErr;
  if (!cuckoo_redis::register_commands(ctx)) return rm::kErr;
  return rm::kOk;
}
