// core/src/core_access.h: how library code that is not a CuckooFilter member (the deserializer's helpers)
// and the tests reach the FilterCore behind a CuckooFilter or a FilterView. Both name this struct their
// friend, so the public API has no accessor for the implementation and users cannot come to depend on one.
#pragma once

#include <memory>
#include <utility>

#include "cuckoo/filter.h"
#include "cuckoo/view.h"
#include "filter_core.h"

namespace cuckoo::internal {

struct CoreAccess {
  static FilterCore& core(CuckooFilter& filter) { return *filter.core_; }
  static const FilterCore& core(const CuckooFilter& filter) { return *filter.core_; }
  static const FilterCore& core(const FilterView& view) { return *view.core_; }
  // A filter around a core built here (the deserializer's).
  static CuckooFilter wrap(std::unique_ptr<FilterCore> core) { return CuckooFilter(std::move(core)); }
};

}  // namespace cuckoo::internal
