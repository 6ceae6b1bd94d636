#!/usr/bin/env bash
# scripts/check-format.sh: fails (status 1) if a C++ or JS file is not formatted as .clang-format and
# .prettierrc.json say, listing the files; scripts/format.sh formats them. Needs clang-format (14) and
# `npm ci` (prettier is a devDependency).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/format-files.sh
status=0
mapfile -t cpp < <(cpp_files)
clang-format --dry-run -Werror "${cpp[@]}" || status=1
mapfile -t js < <(js_files)
node_modules/.bin/prettier --check --log-level warn "${js[@]}" || status=1
[ "$status" -eq 0 ] || echo "check-format: unformatted files (scripts/format.sh formats them)" >&2
exit "$status"
