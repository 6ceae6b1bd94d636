# scripts/format-files.sh: the files the formatters own, for scripts/check-format.sh and scripts/format.sh
# (sourced). The repository's C++ (.clang-format) and JS/TypeScript (.prettierrc.json) under git; not the
# golden data or other projects' code.
cpp_files() { git ls-files '*.cpp' '*.h' ':!:testdata/**'; }
js_files() { git ls-files '*.js' '*.mjs' '*.cjs' '*.ts' ':!:testdata/**'; }
