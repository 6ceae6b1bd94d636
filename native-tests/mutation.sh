#!/usr/bin/env bash
# native-tests/mutation.sh [build-dir]: shows that native-tests/growth_test.cpp catches a growing filter
# whose levels do not nest or whose erase walks the wrong way.
#
# Builds the growth tests three times against the core compiled with -O2: as it is, with
# CUCKOO_MUTANT_ERASE_OLDEST_FIRST (core/src/growing_core.cpp: erase walks the levels oldest first) and with
# CUCKOO_MUTANT_NO_COARSENING (core/src/level_hasher.h: the alternate bucket's low bits depend on the whole
# level fingerprint, so each level is a valid filter but an older level's view of a key is no longer a
# function of a newer one's). Succeeds only if the unmutated tests pass and each mutant fails the
# behavioural tests, that is every test but the LevelHasher identity checks (which catch the second mutant
# directly, and are reported too). Prints the tests each mutant fails.
#
# Only the sources that include a hooked file are compiled again for a mutant. CUCKOO_TEST_SCALE (default
# 0.25 here) scales the tests' operation counts. Needs g++ (or $CXX) and GoogleTest (libgtest-dev).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-mutation}"
cxx="${CXX:-g++}"
export CUCKOO_TEST_SCALE="${CUCKOO_TEST_SCALE:-0.25}"
jobs=2
xxhash_dir="$(dirname "$(echo '#include <xxhash.h>' | "$cxx" -xc++ -E -M - | tr ' \\' '\n\n' | grep '/xxhash.h$' | head -1)")"
flags=(-std=c++17 -O2 -DNDEBUG -I"$root/core/include" -I"$root/core/src" -I"$xxhash_dir")
sources=("$root"/core/src/*.cpp "$root/native-tests/growth_test.cpp")
mkdir -p "$build"

# compile <variant> <macro or empty> <source>...: objects into $build/<variant>/, in parallel.
compile() {
  local variant="$1" macro="$2"
  shift 2
  mkdir -p "$build/$variant"
  printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh -c \
    'dir="$1"; shift; exec "$0" "$@" -c "{}" -o "$dir/$(basename "{}" .cpp).o"' \
    "$cxx" "$build/$variant" ${macro:+-D"$macro"} "${flags[@]}"
}

# Sources whose includes (direct or not) take in a file.
sources_including() {
  local file="$1" src
  for src in "${sources[@]}"; do
    if "$cxx" "${flags[@]}" -MM "$src" | tr ' \\' '\n\n' | grep -qx "$file"; then echo "$src"; fi
  done
}

link() {  # link <variant>: base objects, overridden by the variant's own
  local variant="$1" objects=() src name
  for src in "${sources[@]}"; do
    name="$(basename "$src" .cpp).o"
    if [ -f "$build/$variant/$name" ]; then objects+=("$build/$variant/$name"); else objects+=("$build/base/$name"); fi
  done
  "$cxx" "${objects[@]}" -lgtest -lgtest_main -pthread -o "$build/$variant/growth_tests"
}

# run <binary> <gtest filter>: prints the failed tests; exit status of the test binary.
run() {
  local log status=0
  log="$(mktemp)"
  "$1" --gtest_filter="$2" >"$log" 2>&1 || status=$?
  grep '^\[  FAILED  \] [A-Za-z]' "$log" | sed -E 's/^\[  FAILED  \] /    failed: /; s/, where GetParam.*//; s/ \([0-9]+ ms\)$//' |
    sort -u || true
  rm -f "$log"
  return "$status"
}

start=$SECONDS
rm -rf "$build/base" "$build/erase_oldest_first" "$build/no_coarsening"
compile base "" "${sources[@]}"
link base
mapfile -t erase_sources < <(sources_including "$root/core/src/growing_core.cpp"; echo "$root/core/src/growing_core.cpp")
mapfile -t hasher_sources < <(sources_including "$root/core/src/level_hasher.h")
compile erase_oldest_first CUCKOO_MUTANT_ERASE_OLDEST_FIRST $(printf '%s\n' "${erase_sources[@]}" | sort -u)
link erase_oldest_first
compile no_coarsening CUCKOO_MUTANT_NO_COARSENING "${hasher_sources[@]}"
link no_coarsening
echo "built in $((SECONDS - start)) s (CUCKOO_TEST_SCALE=$CUCKOO_TEST_SCALE)"

behaviour='-LevelHasher.*'
ok=1
echo "unmutated:"
if run "$build/base/growth_tests" '*'; then echo "  passes"; else echo "  FAILS: the tests are broken"; ok=0; fi
for mutant in erase_oldest_first no_coarsening; do
  echo "$mutant:"
  if run "$build/$mutant/growth_tests" "$behaviour"; then
    echo "  NOT CAUGHT by the behavioural tests"
    ok=0
  else
    echo "  caught"
  fi
  echo "  LevelHasher identity tests:"
  run "$build/$mutant/growth_tests" 'LevelHasher.*' && echo "    all pass" || true
done
echo "mutation check took $((SECONDS - start)) s"
[ "$ok" = 1 ] || { echo "mutation check FAILED"; exit 1; }
echo "mutation check passed: both mutants are caught"
