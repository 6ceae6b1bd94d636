#!/usr/bin/env bash
# fuzz/run.sh [seconds]: build the libFuzzer harnesses with clang++ and fuzz, for a bounded time in all
# (default 60 s, half each), CuckooFilter::deserialize (deserialize_fuzzer.cpp) and FilterView
# (view_fuzzer.cpp). Exits non-zero on any crash, sanitizer report, leak or timeout; the offending input
# is saved in <build>/artifacts/. CI runs `fuzz/run.sh 60`.
#
# Build dir: $CUCKOO_FUZZ_BUILD_DIR or build-fuzz/. Each harness's corpus in <build>/corpus-<harness>
# persists between runs; both are seeded from testdata/golden/*.bin, each as-is (mode byte 0) and with the
# harnesses' repairs (mode byte 3: item count and checksum fixed, fuzz/repair.h), and from
# fuzz/regressions/*.bin (inputs that once found a bug, mode byte included).
set -euo pipefail

seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${CUCKOO_FUZZ_BUILD_DIR:-$root/build-fuzz}"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCUCKOO_BUILD_FUZZ=ON -DCUCKOO_BUILD_TESTS=OFF -DCUCKOO_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target deserialize_fuzzer view_fuzzer

seeds="$build/seeds"
mkdir -p "$seeds" "$build/artifacts"
for file in "$root"/testdata/golden/*.bin; do
  name="$(basename "$file" .bin)"
  { printf '\000'; cat "$file"; } >"$seeds/$name-raw"
  { printf '\003'; cat "$file"; } >"$seeds/$name-repaired"
done
# Inputs that once crashed the harness (mode byte included), run first on every fuzz run.
cp "$root"/fuzz/regressions/*.bin "$seeds/"

# One process at a time (the machine is shared); -timeout catches inputs that hang (max_kicks can be 2^20).
half=$(( (seconds + 1) / 2 ))
for harness in deserialize_fuzzer view_fuzzer; do
  mkdir -p "$build/corpus-$harness"
  "$build/fuzz/$harness" \
    -max_total_time="$half" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$harness-" "$build/corpus-$harness" "$seeds"
done
