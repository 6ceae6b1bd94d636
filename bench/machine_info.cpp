// bench/machine_info.cpp: see machine_info.h.
#include "machine_info.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace bench {
namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

std::string cpuinfo_field(const std::string& name) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, name.size(), name) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "?";
}

std::string meminfo_field(const std::string& name) {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, name.size(), name) == 0) return line;
  }
  return name + " ?";
}

}  // namespace

std::string describe_machine() {
  std::ostringstream out;
  out << "cpu model:        " << cpuinfo_field("model name") << "\n";
  out << "cpu MHz:          " << cpuinfo_field("cpu MHz") << "\n";
  out << "logical cpus:     " << std::thread::hardware_concurrency() << "\n";
  out << "cores (cpuinfo):  " << cpuinfo_field("cpu cores") << "\n";
  out << "cpuinfo cache:    " << cpuinfo_field("cache size") << "\n";
  bool any_sysfs = false;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string size = read_first_line(dir + "size");
    if (size.empty()) continue;
    any_sysfs = true;
    out << "cache L" << read_first_line(dir + "level") << " " << read_first_line(dir + "type") << ": "
        << size << " (line " << read_first_line(dir + "coherency_line_size") << " B, shared by cpus "
        << read_first_line(dir + "shared_cpu_list") << ")\n";
  }
  if (!any_sysfs) {
    out << "cache (sysconf, /sys/devices/system/cpu/cpu0/cache absent): L1d "
        << sysconf(_SC_LEVEL1_DCACHE_SIZE) << " B, L2 " << sysconf(_SC_LEVEL2_CACHE_SIZE) << " B, L3 "
        << sysconf(_SC_LEVEL3_CACHE_SIZE) << " B, line " << sysconf(_SC_LEVEL1_DCACHE_LINESIZE) << " B\n";
  }
  out << meminfo_field("MemTotal") << "\n";
  out << "THP enabled:      " << read_first_line("/sys/kernel/mm/transparent_hugepage/enabled") << "\n";
  out << "THP defrag:       " << read_first_line("/sys/kernel/mm/transparent_hugepage/defrag") << "\n";
  out << "kernel:           " << read_first_line("/proc/sys/kernel/osrelease") << "\n";
#if defined(__clang__)
  out << "compiler:         clang " << __clang_version__ << "\n";
#elif defined(__GNUC__)
  out << "compiler:         gcc " << __VERSION__ << "\n";
#endif
  return out.str();
}

long anon_huge_pages_kb() {
  std::ifstream in("/proc/self/smaps_rollup");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, 14, "AnonHugePages:") == 0) return std::stol(line.substr(14));
  }
  return -1;
}

}  // namespace bench
