#!/usr/bin/env bash
# Runs the JS tests under Node 18, the oldest Node the package supports (package.json "engines"), beside
# the machine's own Node 20. Usage: scripts/test-node18.sh (after npm run build; scripts/test.sh calls it).
#
# Node 18 comes from Debian 12's own nodejs package, unpacked into build/node18 rather than installed:
# installing it would replace the machine's Node 20. Debian's build loads three of Node's bundled JS
# dependencies from /usr/share/nodejs (acorn, cjs-module-lexer, undici), so those packages are installed,
# and so are libnode's shared libraries. Both leave the system's Node alone.
# Two tests are left out, as what they measure does not depend on the Node that runs the package: the
# browser test drives Chromium through playwright-core, which itself needs Node 20 (what runs in the
# browser is the same package either way); the size test gzips the bundle with the running Node's zlib,
# and Node 18's compresses the same bytes differently (the budgets are measured with Node 20's).
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
node18_version() { apt-cache madison nodejs | awk '$3 ~ /^18\./ { print $3; exit }'; }
version=$(node18_version)
if [ -z "$version" ]; then
  $sudo apt-get update -qq # a fresh machine may have no package lists yet
  version=$(node18_version)
fi
if [ -z "$version" ]; then
  echo "test-node18: apt offers no Node 18 package (apt-cache madison nodejs); NOT RUN" >&2
  exit 1
fi

dir="$PWD/build/node18" # absolute: the package tests spawn Node from other directories
node="$dir/root/usr/bin/node"
libs="$dir/root/usr/lib/x86_64-linux-gnu"
if [ ! -x "$node" ] || [ "$(cat "$dir/version" 2>/dev/null)" != "$version" ]; then
  # libnode's dependencies (apt-cache depends libnode108), minus the ones every Debian 12 has.
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    node-acorn node-cjs-module-lexer node-undici libuv1 libicu72 libc-ares2 libnghttp2-14 libbrotli1 >/dev/null
  rm -rf "$dir"
  mkdir -p "$dir/debs"
  # apt-get download writes to the current directory; it warns (harmlessly) when run as root.
  (cd "$dir/debs" && apt-get download -qq "nodejs=$version" "libnode108=$version" 2>&1 | grep -v '^W: ' >&2 || true)
  for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
  echo "$version" >"$dir/version"
fi

export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "test-node18: $("$node" --version) (Debian nodejs $version)" >&2
mapfile -t tests < <(ls js-tests/*.test.js | grep -v -e '/browser\.test\.js$' -e '/size\.test\.js$')
"$node" --test "${tests[@]}"
