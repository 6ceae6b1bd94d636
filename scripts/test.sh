#!/usr/bin/env bash
# Checks formatting, then builds everything and runs every test: native (Release with GCC, then with
# Clang, then ASan+UBSan, then the concurrency tests under TSan), the deserializer and view fuzzers for a
# bounded time, then the WASM package's JS tests (Node, packed tarball, headless Chromium), the Redis
# module's tests (real redis-server processes), and the JS tests again, except the browser's, under
# Debian's Node 18.
# Installs what is missing first. Usage: scripts/test.sh   (CUCKOO_FUZZ_SECONDS=60 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)

step() { printf '\n== %s (at %d:%02d) ==\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)) >&2; }

step "formatting: C++ as .clang-format says, JS as .prettierrc.json says (scripts/format.sh fixes it)"
scripts/check-format.sh

step "native build and tests (Release)"
# Explicit options: the cache may hold scripts/bench.sh's CUCKOO_BUILD_TESTS=OFF from an earlier run.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUCKOO_BUILD_TESTS=ON -DCUCKOO_BUILD_BENCH=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs"

step "native build and tests with Clang (Release): the inline lookups as Clang compiles them into callers"
# cuckoo/internal/inline_table.h forces its inlining under Clang only; GCC's Release build above is the
# other compiler. The consumer projects are GCC's (above).
cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DCUCKOO_BUILD_TESTS=ON -DCUCKOO_BUILD_BENCH=OFF >/dev/null
cmake --build build-clang -j"$jobs"
ctest --test-dir build-clang --output-on-failure --no-tests=error -j"$jobs" -E '^consumer_'

# The sanitizer builds use -O1 -g1, as the sanitizers' documentation suggests: they compile in about half
# the time of -O2 -g (make_core.cpp, every table shape, takes over two minutes at -O2 -g under ASan) and
# reports keep function names and line numbers.
sanitizer_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")

step "native tests under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -G Ninja "${sanitizer_flags[@]}" -DCUCKOO_SANITIZE=ON -DCUCKOO_BUILD_TESTS=ON -DCUCKOO_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs"
# The consumer projects build the installed package with their own flags: the Release step covers them.
ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$jobs" -E '^consumer_'

step "concurrency tests under ThreadSanitizer"
# Only the tests that share a filter between threads (native-tests/concurrency_test.cpp): filter.h promises
# that const calls may run concurrently. TSan exits non-zero on any data race report.
cmake -S . -B build-tsan -G Ninja "${sanitizer_flags[@]}" -DCUCKOO_TSAN=ON -DCUCKOO_BUILD_TESTS=ON -DCUCKOO_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target cuckoo_concurrency_tests
TSAN_OPTIONS=halt_on_error=1 build-tsan/native-tests/cuckoo_concurrency_tests

step "mutation check: the growth tests fail on a broken erase order or level nesting"
native-tests/mutation.sh build-mutation

if [ -x fuzz/run.sh ]; then
  step "fuzzing the deserializer and views for ${CUCKOO_FUZZ_SECONDS:-60} s in all"
  fuzz/run.sh "${CUCKOO_FUZZ_SECONDS:-60}"
fi

step "WASM build and JS tests"
npm run build
npm test

step "Redis module tests (redis-server processes on loopback with build/redis/cuckoo_redis.so)"
node --test redis/test/

step "Redis module tests again, the module built with ASan+UBSan (build-asan/), its runtimes preloaded"
# redis-server itself is not instrumented: the sanitizer runtimes must be loaded before the module.
# Leak checking is off: redis-server does not free everything at exit.
CUCKOO_REDIS_MODULE=build-asan/redis/cuckoo_redis.so ASAN_OPTIONS=detect_leaks=0 \
  CUCKOO_REDIS_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libubsan.so)" \
  node --test redis/test/

step "JS tests under Node 18, the oldest Node the package supports"
scripts/test-node18.sh
step "all tests passed"
