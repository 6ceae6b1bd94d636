#!/usr/bin/env bash
# scripts/format.sh: formats the repository's C++ (clang-format, .clang-format) and JS/TypeScript
# (prettier, .prettierrc.json) in place; scripts/check-format.sh checks them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/format-files.sh
mapfile -t cpp < <(cpp_files)
clang-format -i "${cpp[@]}"
mapfile -t js < <(js_files)
node_modules/.bin/prettier --write --log-level warn "${js[@]}"
