// tools/cli/commands.cpp: build, query, info, add, delete, merge.
#include "commands.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <cuckoo/cuckoo.h>

#include "atomic_file.h"
#include "distinct.h"
#include "fixed_point.h"
#include "lines.h"
#include "progress.h"

namespace cuckoo_cli {

namespace {

using cuckoo::CuckooFilter;

// The core's messages start with "cuckoo: "; the tool adds its own prefix.
std::string core_message(const std::exception& e) {
  std::string m = e.what();
  return m.rfind("cuckoo: ", 0) == 0 ? m.substr(8) : m;
}

CuckooFilter load_filter(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  try {
    return CuckooFilter::deserialize(bytes.data(), bytes.size());
  } catch (const cuckoo::FormatError& e) {
    throw std::runtime_error(path + ": not a valid filter file: " + core_message(e));
  }
}

// A filter file opened read-only as a view (cuckoo/view.h): a regular file is mapped, so opening costs its
// header, not its table, and lookups read only the pages they touch; standard input and other files
// that cannot be mapped (pipes) are read into `bytes` and viewed there. The checksum is not verified
// (that reads every byte): view.verify_checksum() does it.
struct OpenedFilter {
  std::vector<uint8_t> bytes;
  std::optional<cuckoo::FilterView> view;
};

std::unique_ptr<OpenedFilter> open_view(const std::string& path) {
  auto opened = std::make_unique<OpenedFilter>();
  struct stat st;
  try {
    if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      try {
        opened->view.emplace(cuckoo::FilterView::open(path));
      } catch (const std::system_error& e) {
        throw std::runtime_error(path + ": cannot open: " + e.code().message());
      }
    } else {
      opened->bytes = read_file(path);
      opened->view.emplace(cuckoo::FilterView::from_bytes(opened->bytes.data(), opened->bytes.size()));
    }
  } catch (const cuckoo::FormatError& e) {
    throw std::runtime_error(path + ": not a valid filter file: " + core_message(e));
  }
  return opened;
}

void verify_checksum(const cuckoo::FilterView& view, const std::string& path) {
  try {
    view.verify_checksum();
  } catch (const cuckoo::FormatError& e) {
    throw std::runtime_error(path + ": not a valid filter file: " + core_message(e));
  }
}

void write_stdout(const uint8_t* data, size_t n) {
  if (std::fwrite(data, 1, n, stdout) != n || std::fflush(stdout) != 0) {
    throw std::runtime_error("cannot write to standard output");
  }
}

void save_filter(const CuckooFilter& filter, const std::string& path) {
  const std::vector<uint8_t> bytes = filter.serialize();
  if (path == "-") {
    if (::isatty(STDOUT_FILENO) == 1) throw UsageError("refusing to write a binary filter to a terminal");
    write_stdout(bytes.data(), bytes.size());
  } else {
    write_file_atomically(path, bytes.data(), bytes.size());
  }
}

// Keys from the arguments (each verbatim; an empty one is an error) or, if there are none, from the lines
// of standard input (lines.h), handed to `batch` in order.
void for_each_key_batch(const std::vector<std::string>& arg_keys, const LineReader::Batch& batch) {
  if (arg_keys.empty()) {
    LineReader({"-"}).read(batch);
    return;
  }
  std::vector<std::string_view> keys;
  for (const std::string& k : arg_keys) {
    if (k.empty()) throw UsageError("an empty key: keys must have at least one byte");
    keys.emplace_back(k);
  }
  batch(keys);
}

std::string quoted(std::string_view key) {
  std::string s = "'";
  s.append(key.substr(0, 200));
  if (key.size() > 200) s += "...";
  return s + "'";
}

// The filter options shared by build: --capacity, --fpr, --fingerprint-bits, --bucket-size, --seed,
// --semi-sort, --growable (capacity then sizes the first level; none picks the core's default). The core
// checks their ranges; filter_for() names them in its messages as the command line does.
cuckoo::Options filter_options(const Args& args, std::optional<uint64_t> capacity) {
  // The core reads capacity 0 as "not given" for a growing filter; a given 0 is refused for either kind,
  // with the message the core (and the npm package) gives for a fixed one.
  if (capacity == uint64_t{0}) throw std::invalid_argument("--capacity must be at least 1 (got 0)");
  cuckoo::Options o;
  o.capacity = capacity.value_or(0);
  if (auto fpr = args.number("fpr")) o.fpr = *fpr;
  if (auto bits = args.u32("fingerprint-bits")) o.fingerprint_bits = *bits;
  if (auto b = args.u32("bucket-size")) o.bucket_size = *b;
  if (auto seed = args.u64("seed")) o.seed = *seed;
  o.semi_sort = args.flag("semi-sort");
  o.growable = args.flag("growable");
  return o;
}

// How the command line names an option in the core's messages: its flag, or, for an option it has no flag
// for, the words of its name. js/cli/commands.js names them alike.
constexpr const char* cli_option_name(cuckoo::Option option) {
  switch (option) {
    case cuckoo::Option::capacity:
      return "--capacity";
    case cuckoo::Option::fpr:
      return "--fpr";
    case cuckoo::Option::fingerprint_bits:
      return "--fingerprint-bits";
    case cuckoo::Option::bucket_size:
      return "--bucket-size";
    case cuckoo::Option::max_kicks:
      return "max kicks";
    case cuckoo::Option::seed:
      return "--seed";
    case cuckoo::Option::semi_sort:
      return "--semi-sort";
    case cuckoo::Option::target_load:
      return "target load";
    case cuckoo::Option::bucket_count:
      return "bucket count";
    case cuckoo::Option::growable:
      return "--growable";
    case cuckoo::Option::max_memory_bytes:
      return "max memory bytes";
  }
  return "";
}

#define CUCKOO_CLI_OPTION_NAME(field, js_name) cli_option_name(cuckoo::Option::field),
constexpr cuckoo::OptionSpelling kCliOptionNames = {CUCKOO_OPTIONS(CUCKOO_CLI_OPTION_NAME)};
#undef CUCKOO_CLI_OPTION_NAME

// A new filter with the command line's options; the core's errors about them (cuckoo::OptionError) name
// them as the command line does.
CuckooFilter filter_for(const Args& args, std::optional<uint64_t> capacity) {
  try {
    return CuckooFilter(filter_options(args, capacity));
  } catch (const cuckoo::OptionError& e) {
    throw std::invalid_argument(e.message(kCliOptionNames).substr(std::string_view("cuckoo: ").size()));
  }
}

[[noreturn]] void filter_full(uint64_t inserted, const CuckooFilter& f, const std::string& what) {
  throw std::runtime_error("the filter is full after " + std::to_string(inserted) + " keys (" +
                           std::to_string(f.slot_count()) + " slots)" + what +
                           (f.config().growable ? "" : "; --growable builds a filter that grows"));
}

// How build and add store keys: each distinct key once (insert_if_absent: a key the filter already
// reports present is not stored again), or, with --keep-duplicates, every copy (insert).
struct Storing {
  bool keep_duplicates = false;
  uint64_t refused = 0;  // copies refused while the filter holds the key (keeping duplicates only)
};

// Stores a batch. Throws, via filter_full, when the filter is full or refuses a key it does not hold,
// which would be missing. Keeping duplicates, a key the filter refuses alone while it already holds it
// (stored 2b times, or its buckets jammed by repeated keys: filter.h) is counted in storing.refused and
// skipped: the filter answers for it as before. Returns the keys stored.
uint64_t insert_batch(CuckooFilter& filter, const std::vector<std::string_view>& keys, Storing& storing,
                      uint64_t stored_before, const std::string& what) {
  if (!storing.keep_duplicates) {
    const uint64_t size_before = filter.size();
    const size_t handled = filter.insert_many_if_absent(keys.data(), keys.size());
    const uint64_t stored = filter.size() - size_before;
    if (handled < keys.size()) filter_full(stored_before + stored, filter, what);
    return stored;
  }
  uint64_t* const refused = &storing.refused;
  size_t done = 0;
  uint64_t stored = 0;
  while (done < keys.size()) {
    const size_t inserted = filter.insert_many(keys.data() + done, keys.size() - done);
    done += inserted;
    stored += inserted;
    if (done == keys.size()) break;
    if (filter.is_full() || !filter.contains(keys[done])) filter_full(stored_before + stored, filter, what);
    ++*refused;
    ++done;
  }
  return stored;
}

void report_refused(const Storing& storing, const CuckooFilter& filter) {
  const uint64_t refused = storing.refused;
  if (refused == 0) return;
  std::fprintf(stderr,
               "cuckoo: %llu keys not added again: each is already present, and a key is stored at most %u "
               "times (2 x bucket size), fewer where repeated keys fill its buckets\n",
               static_cast<unsigned long long>(refused), 2 * filter.config().bucket_size);
}

// In-memory input split into batches of whole lines of ~4 MiB (lines.h rules).
template <typename Fn>
void for_each_batch_in(const std::string& data, Fn fn) {
  constexpr size_t kWindow = size_t{4} << 20;
  std::vector<std::string_view> keys;
  size_t pos = 0;
  while (pos < data.size()) {
    size_t window = std::min(kWindow, data.size() - pos);
    for (;;) {
      keys.clear();
      const bool at_end = pos + window == data.size();
      const size_t used = split_lines(data.data() + pos, window, at_end, keys);
      if (used > 0) {
        fn(keys, pos + used);
        pos += used;
        break;
      }
      window = std::min(window * 2, data.size() - pos);  // one line longer than the window
    }
  }
}

int run_build(const Args& args) {
  const std::optional<std::string> output = args.value("output");
  if (!output) throw UsageError("build needs -o FILE (or -o - for standard output)");
  std::vector<std::string> inputs = args.positional;
  if (inputs.empty()) inputs.push_back("-");
  const std::optional<uint64_t> capacity = args.u64("capacity");
  const bool quiet = args.flag("quiet");
  Storing storing{args.flag("keep-duplicates")};

  if (capacity || args.flag("growable")) {
    // Streams the input: the filter exists before the first key is read.
    CuckooFilter filter = filter_for(args, capacity);
    const std::string what = capacity ? " for --capacity " + std::to_string(*capacity) : "";
    LineReader reader(inputs);
    Progress progress(!quiet, reader.total_bytes());
    uint64_t keys = 0;
    reader.read([&](const std::vector<std::string_view>& batch) {
      keys += insert_batch(filter, batch, storing, keys, what);
      progress.update(keys, reader.bytes_read());
    });
    progress.finish();
    report_refused(storing, filter);
    save_filter(filter, *output);
    return 0;
  }

  // No --capacity: the filter is sized for the input's keys (its distinct keys, unless duplicates are
  // kept), so the input is read whole first.
  std::string data;
  for (const std::string& path : inputs) {
    const std::vector<uint8_t> bytes = read_file(path);
    data.append(bytes.begin(), bytes.end());
    if (!data.empty() && data.back() != '\n') data.push_back('\n');  // a last line does not run on
  }
  uint64_t count = 0;
  if (storing.keep_duplicates) {
    for_each_batch_in(data, [&](const std::vector<std::string_view>& batch, size_t) { count += batch.size(); });
  } else {
    count = count_distinct_keys(data);
  }
  if (count == 0) throw UsageError("the input has no keys; give --capacity to build an empty filter");
  CuckooFilter filter = filter_for(args, count);
  const std::string what = " for " + std::to_string(count) + " keys";
  Progress progress(!quiet, data.size());
  uint64_t keys = 0;
  for_each_batch_in(data, [&](const std::vector<std::string_view>& batch, size_t done) {
    keys += insert_batch(filter, batch, storing, keys, what);
    progress.update(keys, done);
  });
  progress.finish();
  report_refused(storing, filter);
  save_filter(filter, *output);
  return 0;
}

int run_query(const Args& args) {
  if (args.positional.empty()) throw UsageError("query needs a filter file");
  const std::unique_ptr<OpenedFilter> opened = open_view(args.positional[0]);
  const cuckoo::FilterView& filter = *opened->view;
  const std::vector<std::string> arg_keys(args.positional.begin() + 1, args.positional.end());
  const bool present_only = args.flag("present"), absent_only = args.flag("absent"), all = args.flag("all");
  if (present_only && absent_only) throw UsageError("--present and --absent exclude each other");

  uint64_t seen = 0, hits = 0;
  std::vector<uint8_t> answers;
  std::string out;
  for_each_key_batch(arg_keys, [&](const std::vector<std::string_view>& keys) {
    answers.resize(keys.size());
    filter.contains_many(keys.data(), keys.size(), answers.data());
    for (size_t i = 0; i < keys.size(); ++i) {
      const bool hit = answers[i] != 0;
      hits += hit;
      if (present_only || absent_only) {
        if (hit != present_only) continue;
      } else {
        out += hit ? "maybe\t" : "no\t";
      }
      out.append(keys[i]);
      out += '\n';
    }
    seen += keys.size();
    if (out.size() >= (size_t{1} << 20)) {
      write_stdout(reinterpret_cast<const uint8_t*>(out.data()), out.size());
      out.clear();
    }
  });
  write_stdout(reinterpret_cast<const uint8_t*>(out.data()), out.size());
  if (all) return seen > 0 && hits == seen ? 0 : 1;
  return hits > 0 ? 0 : 1;
}

int run_info(const Args& args) {
  if (args.positional.size() != 1) throw UsageError("info needs exactly one filter file");
  const std::string& path = args.positional[0];
  const std::unique_ptr<OpenedFilter> opened = open_view(path);
  const cuckoo::FilterView& f = *opened->view;
  verify_checksum(f, path);
  const cuckoo::Config& c = f.config();
  const double bound = f.false_positive_bound();  // of the levels it has, for a growing filter
  std::string s;
  auto row = [&](const char* name, const std::string& value) { s += std::string(name) + ": " + value + "\n"; };
  row("file", path);
  row("bytes", std::to_string(f.serialized_size()));
  row("format version", std::to_string(c.growable ? cuckoo::kGrowingFormatVersion : cuckoo::kFormatVersion));
  row("bucket size", std::to_string(c.bucket_size));
  row("fingerprint bits", std::to_string(c.fingerprint_bits));
  row("semi-sorted", c.semi_sort ? "yes" : "no");
  if (c.growable) row("levels", std::to_string(f.levels()));
  row("buckets", std::to_string(f.bucket_count()));
  row("slots", std::to_string(f.slot_count()));
  row("seed", std::to_string(c.seed));
  row("items", std::to_string(f.size()));
  // fixed_point.h: the same digits as the JS tool's, ties included.
  // The items in slots (load_factor() leaves out a parked victim), recovered exactly from the ratio.
  const auto in_slots = static_cast<uint64_t>(std::llround(f.load_factor() * static_cast<double>(f.slot_count())));
  row("load", fixed_ratio(100 * in_slots, f.slot_count(), 2) + "%");
  row("bits per item", f.size() == 0 ? "-" : fixed_double(f.bits_per_item(), 2));
  row("false-positive bound", fixed_double(100.0 * bound, 4) + "% (1 in " + fixed_double(1.0 / bound, 0) + ")");
  row("full", f.is_full() ? "yes (a fingerprint is parked in the victim slot: inserts fail until a delete)" : "no");
  row("checksum", "ok");
  write_stdout(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  return 0;
}

int run_add(const Args& args) {
  if (args.positional.empty()) throw UsageError("add needs a filter file");
  const std::string& path = args.positional[0];
  const std::string output = args.value("output").value_or(path);
  CuckooFilter filter = load_filter(path);
  const std::vector<std::string> arg_keys(args.positional.begin() + 1, args.positional.end());
  Storing storing{args.flag("keep-duplicates")};
  for_each_key_batch(arg_keys, [&](const std::vector<std::string_view>& keys) {
    insert_batch(filter, keys, storing, filter.size(), "; " + output + " is unchanged");
  });
  report_refused(storing, filter);
  save_filter(filter, output);
  return 0;
}

int run_delete(const Args& args) {
  if (args.positional.empty()) throw UsageError("delete needs a filter file");
  const std::string& path = args.positional[0];
  const std::string output = args.value("output").value_or(path);
  CuckooFilter filter = load_filter(path);
  const std::vector<std::string> arg_keys(args.positional.begin() + 1, args.positional.end());
  for_each_key_batch(arg_keys, [&](const std::vector<std::string_view>& keys) {
    for (std::string_view key : keys) {
      if (!filter.erase(key)) {
        throw std::runtime_error("key " + quoted(key) + " is not in the filter; " + output + " is unchanged");
      }
    }
  });
  save_filter(filter, output);
  return 0;
}

int run_merge(const Args& args) {
  const std::optional<std::string> output = args.value("output");
  if (!output) throw UsageError("merge needs -o FILE");
  if (args.positional.size() < 2) throw UsageError("merge needs at least two filter files");
  CuckooFilter merged = load_filter(args.positional[0]);
  for (size_t i = 1; i < args.positional.size(); ++i) {
    const std::string& path = args.positional[i];
    const CuckooFilter source = load_filter(path);
    try {
      merged.merge(source);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ": " + core_message(e) + "; nothing written");
    } catch (const std::length_error& e) {
      throw std::runtime_error(path + ": " + core_message(e) + "; nothing written");
    }
  }
  save_filter(merged, *output);
  return 0;
}

const std::vector<OptionSpec> kBuildOptions = {
    {"output", 'o', true},
    {"capacity", 'n', true},
    {"fpr", 'e', true},
    {"seed", 's', true},
    {"bucket-size", 'b', true},
    {"fingerprint-bits", 'f', true},
    {"semi-sort", 0, false},
    {"growable", 'g', false},
    {"quiet", 'q', false},
    {"keep-duplicates", 0, false},
};

}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {"build",
       "build -o OUT [--capacity N] [--growable] [--fpr P] [--seed S] [--bucket-size B] [--keep-duplicates] "
       "[FILE...]",
       kBuildOptions,
       run_build},
      {"query", "query [-p|--present | -a|--absent] [--all] FILTER [KEY...]", {{"present", 'p', false}, {"absent", 'a', false}, {"all", 0, false}}, run_query},
      {"info", "info FILTER", {}, run_info},
      {"add", "add [-o OUT] [--keep-duplicates] FILTER [KEY...]", {{"output", 'o', true}, {"keep-duplicates", 0, false}}, run_add},
      {"delete", "delete [-o OUT] FILTER [KEY...]", {{"output", 'o', true}}, run_delete},
      {"merge", "merge -o OUT FILTER FILTER...", {{"output", 'o', true}}, run_merge},
  };
  return list;
}

}  // namespace cuckoo_cli
