// tools/cli/distinct.h: the exact number of distinct keys of an input read whole, for sizing a filter
// that stores each distinct key once (build without --keep-duplicates). js/cli/distinct.js counts the
// same way, so both tools size, and write, the same filter.
#pragma once

#include <cstdint>
#include <string_view>

namespace cuckoo_cli {

// The distinct keys of `data`, split by lines.h's rules. data must end with '\n' (build appends one).
// Exact: keys are compared byte for byte, so distinct keys whose hashes collide still count twice.
uint64_t count_distinct_keys(std::string_view data);

}  // namespace cuckoo_cli
