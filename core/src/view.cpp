// core/src/view.cpp: FilterView. It builds the same cores as CuckooFilter::deserialize (make_level_core,
// GrowingCore), over the tables where they lie in the input instead of over copies, and forwards to them
// as CuckooFilter does: one lookup code for loaded filters and views.
#include "cuckoo/view.h"

#include <limits>
#include <utility>
#include <vector>

#include "bits.h"
#include "cuckoo/format.h"
#include "filter_core.h"
#include "format_internal.h"
#include "growing_core.h"
#include "hash.h"
#include "mapped_file.h"

namespace cuckoo {

using internal::hash_bytes;
using internal::hash_u64;

namespace {

using namespace internal::format;

// A probe may read kTablePadding bytes past its table (bits.h); in the format every table is followed by
// at least this many bytes of the input, so a view never reads outside it.
static_assert(internal::kTablePadding <= kChecksumBytes && internal::kTablePadding <= kLevelHeaderBytes,
              "the bytes after a table in the format cover what a probe reads past it");

// The checks of deserialize that need no more than the headers (docs/format.md, "Views"), in its order,
// then a core per table that reads it in place.
std::unique_ptr<internal::FilterCore> open_cores(const uint8_t* in, size_t size, const ViewOptions& options) {
  if (in == nullptr && size != 0) throw FormatError("null input");
  check_minimum_size(size);
  const Layout layout = read_layout(in);
  check_length(size, layout.total_bytes());
  if (options.verify_checksum) check_checksum(in, layout);
  auto cores = read_tables(in, layout, /*huge_pages=*/false, /*in_place=*/true);
  return assemble_core(layout, std::move(cores), /*huge_pages=*/false);
}

}  // namespace

FilterView::FilterView(std::unique_ptr<internal::FilterCore> core, std::unique_ptr<internal::MappedFile> file,
                       const uint8_t* data, size_t size)
    : core_(std::move(core)), inline_table_(&core_->inline_table()), file_(std::move(file)), data_(data), size_(size) {}

FilterView::FilterView(FilterView&& other) noexcept = default;
FilterView& FilterView::operator=(FilterView&& other) noexcept = default;
FilterView::~FilterView() = default;

FilterView FilterView::from_bytes(const void* data, size_t size, const ViewOptions& options) {
  const auto* in = static_cast<const uint8_t*>(data);
  return FilterView(open_cores(in, size, options), nullptr, in, size);
}

FilterView FilterView::open(const std::string& path, const ViewOptions& options) {
  auto file = std::make_unique<internal::MappedFile>(path);
  file->prefer_huge_pages();
  auto core = open_cores(file->data(), file->size(), options);
  const uint8_t* data = file->data();
  const size_t size = file->size();
  return FilterView(std::move(core), std::move(file), data, size);
}

void FilterView::verify_checksum() const { check_checksum(data_, read_layout(data_)); }

uint64_t FilterView::hash(std::string_view key) const { return hash_bytes(key.data(), key.size(), config().seed); }
uint64_t FilterView::hash(uint64_t key) const { return hash_u64(key, config().seed); }
uint64_t FilterView::hash(const void* data, size_t size) const { return hash_bytes(data, size, config().seed); }

bool FilterView::contains(std::string_view key) const { return core_->contains_bytes_key(key.data(), key.size()); }
bool FilterView::contains_in_core(uint64_t key) const { return core_->contains_u64_key(key); }
bool FilterView::contains(const void* data, size_t size) const { return core_->contains_bytes_key(data, size); }

size_t FilterView::count(std::string_view key) const { return core_->count(hash(key)); }
size_t FilterView::count(uint64_t key) const { return core_->count(hash(key)); }
size_t FilterView::count(const void* data, size_t size) const { return core_->count(hash(data, size)); }

void FilterView::contains_many(const uint64_t* keys, size_t n, uint8_t* out) const {
  core_->contains_many(keys, n, out);
}
void FilterView::contains_many(const std::string_view* keys, size_t n, uint8_t* out) const {
  core_->contains_many(keys, n, out);
}

uint64_t FilterView::size() const { return core_->size(); }
uint64_t FilterView::bucket_count() const { return core_->bucket_count(); }
uint64_t FilterView::slot_count() const { return core_->slot_count(); }
bool FilterView::is_full() const { return core_->is_full(); }
unsigned FilterView::levels() const { return core_->level_count(); }
double FilterView::false_positive_bound() const { return core_->false_positive_bound(); }
// As CuckooFilter's (filter.cpp); view_test.cpp checks that they agree.
double FilterView::load_factor() const {
  return static_cast<double>(size() - core_->parked_count()) / static_cast<double>(slot_count());
}
double FilterView::bits_per_item() const {
  if (size() == 0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(core_->table_bytes()) * 8.0 / static_cast<double>(size());
}
const Config& FilterView::config() const { return core_->config(); }

}  // namespace cuckoo
