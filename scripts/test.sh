#!/usr/bin/env bash
# Builds everything and runs every test: native (Release, then ASan+UBSan), the deserializer fuzzer for a
# bounded time, then the WASM package's JS tests (Node, packed tarball, headless Chromium).
# Installs what is missing first. Usage: scripts/test.sh   (CUCKOO_FUZZ_SECONDS=60 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)

step() { printf '\n== %s ==\n' "$*" >&2; }

step "native build and tests (Release)"
# Explicit options: the cache may hold scripts/bench.sh's CUCKOO_BUILD_TESTS=OFF from an earlier run.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUCKOO_BUILD_TESTS=ON -DCUCKOO_BUILD_BENCH=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs"

step "native tests under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUCKOO_SANITIZE=ON -DCUCKOO_BUILD_TESTS=ON -DCUCKOO_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$jobs"

if [ -x fuzz/run.sh ]; then
  step "fuzzing the deserializer for ${CUCKOO_FUZZ_SECONDS:-60} s"
  fuzz/run.sh "${CUCKOO_FUZZ_SECONDS:-60}"
fi

step "WASM build and JS tests"
npm run build
npm test
step "all tests passed"
