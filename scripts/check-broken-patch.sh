#!/usr/bin/env bash
# Shows that a patch that no longer applies fails `npm ci`, wherever it runs: in a scratch copy of the
# project's package.json, lockfile and patches/, one patch is broken (a line it expects is changed, as a new
# release of the package would change it) and the Dockerfile's own install command is run there, outside CI
# (the Docker build sets no CI variable). Exits 0 when that install failed on the broken patch, 1 otherwise.
# It installs every package and compiles better-sqlite3, so it takes a few minutes; tests/framework/patches.test.ts
# checks the same postinstall on one package in a second, in `npm test`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

install=$(sed -n 's/^RUN \(npm ci .*\)$/\1/p' "$root/Dockerfile")
[ -n "$install" ] || { echo "The Dockerfile has no 'RUN npm ci ...' line." >&2; exit 1; }
grep -q '^COPY patches ./patches$' "$root/Dockerfile" || { echo "The Dockerfile does not copy patches/ before its install." >&2; exit 1; }

cp "$root/package.json" "$root/package-lock.json" "$scratch/"
cp -r "$root/patches" "$scratch/patches"
patch="$scratch/patches/react-router-dom+6.30.4.patch"
sed -i 's/^ function createStaticRouter(routes, context, opts = {}) {$/ function createStaticRouter(routes, context, options = {}) {/' "$patch"
if cmp -s "$patch" "$root/patches/react-router-dom+6.30.4.patch"; then
  echo "Could not break the patch: its context line changed; update this script." >&2
  exit 1
fi

echo "Running '$install' in $scratch with react-router-dom's patch broken (CI unset) ..."
cd "$scratch"
if env -u CI -u NODE_ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $install >install.log 2>&1; then
  tail -20 install.log
  echo "FAIL: npm ci succeeded although a patch does not apply: the image would ship unpatched." >&2
  exit 1
fi
grep -E "patch-package|react-router-dom|\*\*ERROR\*\*" install.log | head -10
echo "OK: npm ci failed on the broken patch (exit code non-zero), as the Docker build's install would."
