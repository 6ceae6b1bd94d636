#!/usr/bin/env bash
# bench/cli/run.sh: throughput of `cuckoo build` from a 10 M-line key file, natively and through the npm
# package's CLI (node js/cli/main.js, what `npx cuckoo-wasm` runs), reading included; checks that both
# write the same bytes. Targets (issue 29): >= 5 M lines/s natively, >= 2 M lines/s through node.
#
#   bench/cli/run.sh [BUILD_DIR] [LINES] [OTHER_TREE]      defaults: build, 10000000
# Needs the native build (cmake --build BUILD_DIR) and the WASM package (npm run build). With OTHER_TREE (a
# checkout of another commit, `npm run build` done there), the node runs alternate between that tree's CLI
# and this one's, and each line ends with this tree's speed-up over it.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
lines=${2:-10000000}
other=${3:-}
[ -z "$other" ] || [ -f "$other/dist/cuckoo.cjs" ] || { echo "bench/cli: $other/dist/ missing (npm run build there)" >&2; exit 2; }
cli=$build/tools/cli/cuckoo
[ -x "$cli" ] || { echo "bench/cli: $cli not built (cmake --build $build)" >&2; exit 2; }
[ -f dist/cuckoo.cjs ] || { echo "bench/cli: dist/ missing (npm run build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Keys like user ids: "user-" and a decimal number, 10-13 bytes per line.
seq 1 "$lines" | sed 's/^/user-/' > "$work/keys.txt"
echo "input: $lines lines, $(stat -c %s "$work/keys.txt") bytes; fpr 0.001"

# Best of 3 wall-clock runs, in M lines/s.
measure() {
  if [ -n "$other" ] && [ "$3" = node ]; then
    compare "$@"
    return
  fi
  local label=$1 out=$2
  shift 2
  local best=""
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" -o "$out" "$work/keys.txt" --quiet
    t1=$(date +%s.%N)
    best=$(awk -v a="$t0" -v b="$t1" -v prev="$best" 'BEGIN { t = b - a; if (prev == "" || t < prev) print t; else print prev }')
  done
  awk -v t="$best" -v n="$lines" -v l="$label" 'BEGIN { printf "%-46s %6.2f s  %6.2f M lines/s\n", l, t, n / t / 1e6 }'
}

# Seconds of one run of the command ($1..) with -o $out.
run_once() {
  local out=$1 t0 t1
  shift
  t0=$(date +%s.%N)
  "$@" -o "$out" "$work/keys.txt" --quiet
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}

# measure's line for a node command, run alternately from OTHER_TREE and from this tree, best of 3 each.
compare() {
  local label=$1 out=$2
  shift 2
  local script=$2
  shift 2
  local best_here="" best_other=""
  for _ in 1 2 3; do
    best_other=$(awk -v t="$(run_once "$out.other" node "$other/$script" "$@")" -v p="$best_other" 'BEGIN { print (p == "" || t < p) ? t : p }')
    best_here=$(awk -v t="$(run_once "$out" node "$script" "$@")" -v p="$best_here" 'BEGIN { print (p == "" || t < p) ? t : p }')
  done
  cmp "$out" "$out.other"
  awk -v t="$best_here" -v o="$best_other" -v n="$lines" -v l="$label" \
    'BEGIN { printf "%-46s %6.2f s  %6.2f M lines/s  (other tree %.2f s: %.2fx)\n", l, t, n / t / 1e6, o, o / t }'
}

measure "native, --capacity (streamed)" "$work/n1.cf" "$cli" build --capacity "$lines" --fpr 0.001
measure "native, sized from the input (read whole)" "$work/n2.cf" "$cli" build --fpr 0.001
measure "node, --capacity (streamed)" "$work/j1.cf" node js/cli/main.js build --capacity "$lines" --fpr 0.001
measure "node, sized from the input (read whole)" "$work/j2.cf" node js/cli/main.js build --fpr 0.001

cmp "$work/n1.cf" "$work/j1.cf" && cmp "$work/n2.cf" "$work/j2.cf" && echo "native and node wrote identical bytes"
"$cli" info "$work/n2.cf" | grep -E '^(items|load|bits per item):'
