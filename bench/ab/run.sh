#!/usr/bin/env bash
# bench/ab/run.sh: the working tree's core against another commit's, side by side in one process.
#   bench/ab/run.sh <old commit> [log2_buckets = 25] [full]      lookup rates (lookup_ab.cpp), ~3 minutes;
#       "full": fill to the first failure, as Table 3 does, instead of to 95%
#   bench/ab/run.sh --insert <old commit> [log2_buckets = 25] [rounds = 2]
#       construction rates, single inserts to the first failure (insert_ab.cpp), ~1 minute per round
# The old core is compiled against the working tree's public headers (cuckoo::Config), so it must be a
# commit whose Config has the same fields. Needs g++ and libxxhash-dev (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
program=lookup_ab
if [[ ${1:-} == --insert ]]; then
  program=insert_ab
  shift
fi
old=${1:?usage: bench/ab/run.sh [--insert] <old commit> [log2_buckets] [full | rounds]}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The old core/src, moved to namespace cuckoo::ab_old with its macros renamed, so both cores link into one
# program. Its public headers stay the working tree's.
mkdir -p "$work/ab_old"
git archive "$old" core/src | tar -x -C "$work"
for f in "$work"/core/src/*; do
  sed -e 's/namespace cuckoo::internal/namespace cuckoo::ab_old/' -e 's/cuckoo::internal::/cuckoo::ab_old::/g' \
    -e 's/CUCKOO_\(FLATTEN\|INLINE\|NOINLINE\)/AB_OLD_\1/g' "$f" >"$work/ab_old/$(basename "$f")"
done

g++ -std=c++17 -O3 -DNDEBUG -DXXH_INLINE_ALL -I"$work" -Icore/src -Icore/include -Ibench \
  "bench/ab/$program.cpp" bench/machine_info.cpp core/src/aligned_buffer.cpp core/src/options.cpp core/src/semi_sorted_table.cpp \
  "$work"/ab_old/aligned_buffer.cpp "$work"/ab_old/semi_sorted_table.cpp -o "$work/$program"
echo "old: $(git rev-parse --short "$old")   new: working tree at $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- core || echo ' + uncommitted changes in core/')"
"$work/$program" "${2:-25}" ${3:+"$3"}
