#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks for this repo, and nothing it already has.
#   scripts/install-deps.sh bench   native toolchain, xxHash, Google Benchmark, Emscripten, zopfli, npm packages
#   scripts/install-deps.sh test    the above + GoogleTest, clang's fuzzer runtime, Chromium, redis-server
# Only Debian's packages and the npm registry are used; nothing is downloaded from elsewhere.
set -euo pipefail
mode=${1:-test}
cd "$(dirname "$0")/.."

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_cmd g++ || need+=(g++)
have_cmd cmake || need+=(cmake)
have_cmd ninja || need+=(ninja-build)
have_cmd node || need+=(nodejs npm)
[ -f /usr/include/xxhash.h ] || need+=(libxxhash-dev)
[ -f /usr/include/benchmark/benchmark.h ] || need+=(libbenchmark-dev)
have_cmd em++ || need+=(emscripten)
have_cmd zopfli || need+=(zopfli)
if [ "$mode" = test ]; then
  [ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev libgmock-dev)
  have_cmd clang++ || need+=(clang)
  have_cmd clang-format || need+=(clang-format)
  ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
  have_cmd chromium || need+=(chromium)
  have_cmd redis-server || need+=(redis-server)  # the Redis module's tests (redis/test/)
fi

if [ ${#need[@]} -gt 0 ]; then
  echo "install-deps: installing ${need[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# The tools need Node 20 (playwright-core, the browser test's driver, refuses older). Debian 12's own
# nodejs, which the line above installs on a machine with none, is 18: say so now rather than fail later.
# (The package itself supports Node >= 18; scripts/test-node18.sh tests that.)
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "install-deps: Node $(node --version) found; building and testing need Node 20 or later" >&2
  exit 1
fi

# npm packages (dev only: benchmark peers, playwright-core, typescript). Reinstall when the lock changed.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
