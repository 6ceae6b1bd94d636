#!/usr/bin/env bash
# bench/run.sh: the native evaluation. Runs paper_eval (the paper's Table 3 and Figures 2, 4-8),
# growth_eval (a growing filter beside a right-sized fixed one) and micro_bench (Google Benchmark, single
# operations) from an existing build, and writes everything to bench/results/<run>/: table3.txt, CSV
# files, SVG figures, machine.txt, config.txt, micro_bench.json, stdout.txt, and growth/ for growth_eval.
# The run is also copied to bench/results/latest/ (the one the README links).
#
# Usage: bench/run.sh [--full] [other paper_eval flags]
#   default: 24 MiB filters (2^22 buckets x 4 x 12 bits), a few minutes on 2 cores; growth to ~1100x
#   --full:  the paper's 192 MB filters (2^25 buckets, ~131 M items), roughly 20-30 minutes; growth to ~16000x
#            (growth_eval gets only --full; the other flags are paper_eval's)
# Environment: BUILD_DIR (default build), RUN_NAME (default <UTC date>-default|full), MICRO=0 skips micro_bench,
# GROWTH=0 skips growth_eval, LATEST=0 leaves bench/results/latest/ alone.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
mode=default
for arg in "$@"; do [[ $arg == --full ]] && mode=full; done
run_name=${RUN_NAME:-$(date -u +%Y%m%d-%H%M%S)-$mode}
out=bench/results/$run_name
mkdir -p "$out"

if [[ ! -x $build_dir/bench/paper_eval ]]; then
  echo "bench/run.sh: $build_dir/bench/paper_eval missing; build first:" >&2
  echo "  cmake -S . -B $build_dir -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build $build_dir" >&2
  exit 1
fi

{
  echo "run:      $run_name"
  echo "command:  bench/run.sh $*"
  echo "git:      $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- core bench ':!bench/results' 2>/dev/null || echo ' (+ uncommitted changes in core/ or bench/)')"
  echo "date:     $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "load avg: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine makes the numbers noisy)"
} > "$out/run.txt"
cat "$out/run.txt" >&2

start=$SECONDS
echo "== paper_eval ($mode) -> $out" >&2
"$build_dir/bench/paper_eval" --out "$out" "$@" | tee "$out/stdout.txt"

if [[ ${GROWTH:-1} != 0 && -x $build_dir/bench/growth_eval ]]; then
  echo "== growth_eval ($mode) -> $out/growth" >&2
  mkdir -p "$out/growth"
  growth_flags=()
  [[ $mode == full ]] && growth_flags=(--full)
  "$build_dir/bench/growth_eval" --out "$out/growth" "${growth_flags[@]}" | tee "$out/growth/stdout.txt"
fi

if [[ ${MICRO:-1} != 0 && -x $build_dir/bench/micro_bench ]]; then
  echo "== micro_bench -> $out/micro_bench.json" >&2
  min_time=0.2
  [[ $mode == full ]] && min_time=1
  "$build_dir/bench/micro_bench" --benchmark_min_time="$min_time" \
    --benchmark_out="$out/micro_bench.json" --benchmark_out_format=json | tee "$out/micro_bench.txt"
fi
echo "total: $((SECONDS - start)) s" | tee -a "$out/run.txt" >&2

if [[ ${LATEST:-1} != 0 ]]; then
  rm -rf bench/results/latest
  cp -r "$out" bench/results/latest
  echo "results: $out/ (copied to bench/results/latest/)" >&2
else
  echo "results: $out/" >&2
fi
