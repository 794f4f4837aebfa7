#!/usr/bin/env bash
# Prepares the build context of the Dockerfile's `prebuilt` stage (APP_FROM=prebuilt): this
# checkout's build (dist/) and the production part of its node_modules, copied (the checkout's
# own node_modules is left as it is), slimmed as the Dockerfile's build stage slims its own.
# Usage: stage-prebuilt.sh STAGE_DIR
set -euo pipefail
stage=${1:?usage: stage-prebuilt.sh STAGE_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

[ -f dist/scripts/start.js ] && [ -f dist/apps/api/src/main.js ] ||
  { echo "containers: no build in dist/ (npm run build first)" >&2; exit 1; }
[ -f node_modules/sqlite3/build/Release/node_sqlite3.node ] ||
  { echo "containers: node_modules has no compiled sqlite3 (npm ci first)" >&2; exit 1; }

rm -rf "$stage"
mkdir -p "$stage/app/node_modules" "$stage/deploy"
cp deploy/docker-entrypoint.sh "$stage/deploy/"
cp package.json "$stage/app/"
mkdir -p "$stage/app/dist"
cp -a dist/. "$stage/app/dist/"
# Every installed production package (npm's own list), each at its place in the tree.
packages=$(npm ls --omit=dev --all --parseable) ||
  { echo "containers: npm ls cannot list the production packages (npm ci first)" >&2; exit 1; }
grep "^$root/node_modules/" <<<"$packages" | sort -u |
  while read -r dir; do
    target=$stage/app/${dir#"$root"/}
    [ -e "$target" ] && continue
    mkdir -p "$(dirname "$target")"
    cp -a "$dir" "$target"
  done
sh scripts/containers/slim-app.sh "$stage/app"
