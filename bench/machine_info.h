// bench/machine_info.h: a plain-text description of the machine a run measured (CPU model, cores, caches,
// memory, transparent huge pages, compiler), written beside the results as machine.txt.
#pragma once

#include <string>

namespace bench {

// From /proc/cpuinfo, /sys/devices/system/cpu/cpu0/cache (when the kernel exposes it; otherwise the
// cpuinfo "cache size" line and sysconf), /proc/meminfo and /sys/kernel/mm/transparent_hugepage.
std::string describe_machine();

// Kilobytes of this process's anonymous memory currently backed by transparent huge pages
// (AnonHugePages in /proc/self/smaps_rollup); -1 when unavailable.
long anon_huge_pages_kb();

}  // namespace bench
