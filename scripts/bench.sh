#!/usr/bin/env bash
# The main job: builds everything and runs the benchmarks. The paper's evaluation (Table 3, Figures 2 and
# 4-8) and a growing filter against a fixed one (growth_eval) natively, then the JS benchmark against the
# npm peers. Installs what is missing first.
# Usage: scripts/bench.sh [--full]     (--full: the paper's 192 MB filters; takes much longer)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh bench

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUCKOO_BUILD_TESTS=OFF -DCUCKOO_BUILD_BENCH=ON >/dev/null
cmake --build build -j"$(nproc)"
bench/run.sh "$@"

npm run build
npm run bench
