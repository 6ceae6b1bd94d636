// bench/view_bench.cpp: cuckoo::FilterView (cuckoo/view.h) against a loaded filter, on a large file.
//
//   view_bench build FILE [--table-mb N] [--load L]  writes a fixed filter (b = 4, f = 12) whose table is
//                                                    N MB (default 1536), filled to load L (default 0.5)
//   view_bench open FILE [--rounds N] [--cold 1]      FilterView::open time (median and max of N rounds);
//                                                    --cold 1 evicts the file's pages from the page cache
//                                                    before each open (posix_fadvise), so the header and
//                                                    the victim's buckets come from the disk
//   view_bench lookups FILE [--queries N] [--rounds N]
//                                                    single and batched lookups (50% present keys) through
//                                                    the view of the file, CuckooFilter::deserialize's
//                                                    filter and a view of a copy of the bytes in anonymous
//                                                    huge pages, alternated round by round; medians, ratios
//   view_bench pss FILE [--procs N]                   N processes open the file as views and query it
//                                                    until every page is resident; prints each one's Rss
//                                                    and Pss from /proc/<pid>/smaps_rollup
//
// The file is written through a shared mapping of it (serialize_to into the page cache), so building a
// filter of N MB needs N MB of memory for the filter, not twice that. Keys: bench/keys.h.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <cuckoo/cuckoo.h>

#include "keys.h"
#include "timer.h"

namespace {

constexpr uint64_t kKeySeed = 38;

struct Args {
  std::string mode, path;
  double table_mb = 1536, load = 0.5;
  size_t queries = 4'000'000;
  int rounds = 5, procs = 4;
  bool cold = false;
};

Args parse(int argc, char** argv) {
  Args a;
  if (argc < 3) {
    std::fprintf(stderr, "usage: view_bench build|open|lookups|pss FILE [options] (see bench/view_bench.cpp)\n");
    std::exit(2);
  }
  a.mode = argv[1];
  a.path = argv[2];
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--table-mb") a.table_mb = std::atof(v);
    else if (k == "--load") a.load = std::atof(v);
    else if (k == "--queries") a.queries = std::strtoull(v, nullptr, 10);
    else if (k == "--rounds") a.rounds = std::atoi(v);
    else if (k == "--procs") a.procs = std::atoi(v);
    else if (k == "--cold") a.cold = std::atoi(v) != 0;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      std::exit(2);
    }
  }
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The number of keys a file's filter holds is its size(): keys.positive(0 .. size) went in, in order,
// until the first refused one (build stops there).
int build(const Args& a) {
  cuckoo::Options o;
  o.bucket_size = 4;
  o.fingerprint_bits = 12;
  o.bucket_count = static_cast<uint64_t>(a.table_mb * 1e6 / 6) & ~uint64_t{1};  // 6 bytes per bucket
  cuckoo::CuckooFilter f(o);
  const uint64_t n = static_cast<uint64_t>(static_cast<double>(f.slot_count()) * a.load);
  const bench::KeyStream keys(kKeySeed);
  bench::Timer t;
  std::vector<uint64_t> block(1 << 16);
  uint64_t done = 0;
  while (done < n) {
    const size_t m = static_cast<size_t>(std::min<uint64_t>(block.size(), n - done));
    for (size_t j = 0; j < m; ++j) block[j] = keys.positive(done + j);
    const size_t put = f.insert_many(block.data(), m);
    done += put;
    if (put < m) break;
  }
  std::fprintf(stderr, "inserted %llu keys in %.1f s\n", static_cast<unsigned long long>(done), t.seconds());
  const size_t size = f.serialized_size();
  const std::string temp = a.path + ".tmp";
  const int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    std::perror(temp.c_str());
    return 1;
  }
  void* out = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (out == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  f.serialize_to(static_cast<uint8_t*>(out));
  ::msync(out, size, MS_SYNC);
  ::munmap(out, size);
  ::close(fd);
  if (std::rename(temp.c_str(), a.path.c_str()) != 0) {
    std::perror("rename");
    return 1;
  }
  std::printf("wrote %s: %zu bytes, %llu items, table %.1f MB\n", a.path.c_str(), size,
              static_cast<unsigned long long>(f.size()), static_cast<double>(size) / 1e6);
  return 0;
}

// Drops the file's pages from the page cache (only this file's: the machine may be shared).
void evict(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

int open_time(const Args& a) {
  std::vector<double> ms;
  uint64_t items = 0;
  size_t bytes = 0;
  for (int r = 0; r < a.rounds; ++r) {
    if (a.cold) evict(a.path);
    bench::Timer t;
    const cuckoo::FilterView view = cuckoo::FilterView::open(a.path);
    ms.push_back(t.seconds() * 1e3);
    items = view.size();
    bytes = view.serialized_size();
  }
  std::printf("open %s%s (%.1f MB, %llu items): median %.3f ms, max %.3f ms over %d opens\n", a.cold ? "(cold) " : "",
              a.path.c_str(),
              static_cast<double>(bytes) / 1e6, static_cast<unsigned long long>(items), median(ms),
              *std::max_element(ms.begin(), ms.end()), a.rounds);
  return 0;
}

std::string rollup_field(pid_t pid, const char* field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/smaps_rollup");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) return line.substr(line.find_first_not_of(" \t", std::strlen(field)));
  return "?";
}

// Millions of lookups per second, one contains() per key, or contains_many over the whole array.
template <typename Filter>
double single_mops(const Filter& f, const std::vector<uint64_t>& q) {
  bench::Timer t;
  uint64_t hits = 0;
  for (uint64_t k : q) hits += f.contains(k);
  const double s = t.seconds();
  bench::consume(hits);
  return bench::mops(q.size(), s);
}
template <typename Filter>
double batched_mops(const Filter& f, const std::vector<uint64_t>& q, std::vector<uint8_t>& out) {
  bench::Timer t;
  f.contains_many(q.data(), q.size(), out.data());
  const double s = t.seconds();
  uint64_t hits = 0;
  for (uint8_t x : out) hits += x;
  bench::consume(hits);
  return bench::mops(q.size(), s);
}

int lookups(const Args& a) {
  const cuckoo::FilterView view = cuckoo::FilterView::open(a.path);
  bench::Timer load_timer;
  const cuckoo::CuckooFilter loaded = cuckoo::CuckooFilter::deserialize(view.data(), view.serialized_size());
  std::printf("deserialize: %.2f s (checksum verified there); view: every page touched by it\n", load_timer.seconds());
  const bench::KeyStream keys(kKeySeed);
  bench::Rng rng(7);
  uint64_t next_negative = 0;
  const std::vector<uint64_t> q = bench::make_queries(keys, view.size(), 0.5, a.queries, rng, &next_negative);
  // A third contender: a view of a copy of the bytes in anonymous memory with huge pages, as the loaded
  // table has them: separates the cost of the memory (page cache or anonymous) from that of the code.
  const size_t size = view.serialized_size();
  void* anon = ::mmap(nullptr, size + (size_t{2} << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (anon == MAP_FAILED) return 1;
  auto* copy = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(anon) + (size_t{2} << 20) - 1) &
                                          ~((uintptr_t{2} << 20) - 1));
  ::madvise(copy, size, MADV_HUGEPAGE);
  std::memcpy(copy, view.data(), size);
  const cuckoo::FilterView span = cuckoo::FilterView::from_bytes(copy, size);
  std::vector<uint8_t> out(q.size());
  std::vector<double> vs, ls, ss, vb, lb, sb;
  for (int r = 0; r < a.rounds; ++r) {
    vs.push_back(single_mops(view, q));
    ls.push_back(single_mops(loaded, q));
    ss.push_back(single_mops(span, q));
    vb.push_back(batched_mops(view, q, out));
    lb.push_back(batched_mops(loaded, q, out));
    sb.push_back(batched_mops(span, q, out));
  }
  std::printf("lookups (%zu keys, 50%% present, %d rounds alternated; Mops/s median):\n", q.size(), a.rounds);
  std::printf(
      "  single:  view of the file %.2f  loaded %.2f  view of an anonymous copy %.2f  "
      "ratios to loaded: file %.3f, copy %.3f\n",
      median(vs), median(ls), median(ss), median(vs) / median(ls), median(ss) / median(ls));
  std::printf(
      "  batched: view of the file %.2f  loaded %.2f  view of an anonymous copy %.2f  "
      "ratios to loaded: file %.3f, copy %.3f\n",
      median(vb), median(lb), median(sb), median(vb) / median(lb), median(sb) / median(lb));
  std::printf(
      "memory of this process: Rss %s, FilePmdMapped %s (the view's pages mapped 2 MiB at a time), "
      "AnonHugePages %s (the loaded table's)\n",
      rollup_field(::getpid(), "Rss:").c_str(), rollup_field(::getpid(), "FilePmdMapped:").c_str(),
      rollup_field(::getpid(), "AnonHugePages:").c_str());
  std::printf("(checksum %llu)\n", static_cast<unsigned long long>(bench::g_checksum_sink));
  return 0;
}

// Each child opens the view, reads every byte through it (verify_checksum) and runs lookups, so that all
// of its pages are mapped in it, then tells the parent and waits to be measured.
int pss(const Args& a) {
  std::vector<pid_t> children;
  std::vector<int> ready_pipes;
  int go[2];
  if (::pipe(go) != 0) return 1;
  for (int i = 0; i < a.procs; ++i) {
    int ready[2];
    if (::pipe(ready) != 0) return 1;
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(ready[0]);
      ::close(go[1]);
      const cuckoo::FilterView view = cuckoo::FilterView::open(a.path);
      view.verify_checksum();
      const bench::KeyStream keys(kKeySeed);
      uint64_t hits = 0;
      for (uint64_t k = 0; k < 1'000'000; ++k) hits += view.contains(keys.positive(k));
      bench::consume(hits);
      char c = hits == 1'000'000 ? 'y' : 'n';  // every inserted key is found
      if (::write(ready[1], &c, 1) != 1) _exit(1);
      if (::read(go[0], &c, 1) < 0) _exit(1);  // blocks until the parent closes its end
      _exit(0);
    }
    ::close(ready[1]);
    children.push_back(pid);
    ready_pipes.push_back(ready[0]);
  }
  ::close(go[0]);
  bool found_all = true;
  for (int fd : ready_pipes) {
    char c = 'n';
    if (::read(fd, &c, 1) != 1) c = 'n';
    found_all &= c == 'y';
  }
  struct stat st;
  ::stat(a.path.c_str(), &st);
  std::printf("%d processes, each with %s (%.1f MB) open as a view, every page read:\n", a.procs, a.path.c_str(),
              static_cast<double>(st.st_size) / 1e6);
  for (pid_t pid : children)
    std::printf("  pid %d: Rss %s, Pss %s, Pss_File %s\n", pid, rollup_field(pid, "Rss:").c_str(),
                rollup_field(pid, "Pss:").c_str(), rollup_field(pid, "Pss_File:").c_str());
  std::printf("  every inserted key found: %s\n", found_all ? "yes" : "NO");
  ::close(go[1]);
  for (pid_t pid : children) ::waitpid(pid, nullptr, 0);
  return found_all ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  if (a.mode == "build") return build(a);
  if (a.mode == "open") return open_time(a);
  if (a.mode == "lookups") return lookups(a);
  if (a.mode == "pss") return pss(a);
  std::fprintf(stderr, "unknown mode %s\n", a.mode.c_str());
  return 2;
}
