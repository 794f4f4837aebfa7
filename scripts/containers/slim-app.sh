#!/bin/sh
# Leaves in an app directory (its dist/ and production node_modules/) only what the image runs:
# no source maps or type declarations, no bench/examples, no compilers, and of sqlite3 only its
# compiled module. Used by the Dockerfile's build stage and by scripts/test-containers.sh.
# Usage: slim-app.sh APP_DIR
set -eu
app=${1:?usage: slim-app.sh APP_DIR}

rm -rf "$app/dist/bench" "$app/dist/examples" "$app/dist/test"
# @nestjs/swagger depends on them for its compiler plugin, which only a build runs.
rm -rf "$app/node_modules/typescript" "$app/node_modules/@microsoft/tsdoc" "$app/node_modules/.bin"
# sqlite3 as `bindings` finds it: package.json, lib/ and build/Release/node_sqlite3.node.
sqlite=$app/node_modules/sqlite3
mv "$sqlite/build/Release/node_sqlite3.node" "$app/node_sqlite3.node"
rm -rf "$sqlite/build" "$sqlite/deps" "$sqlite/src" "$sqlite/node-addon-api" "$sqlite/binding.gyp"
mkdir -p "$sqlite/build/Release"
mv "$app/node_sqlite3.node" "$sqlite/build/Release/node_sqlite3.node"
find "$app/dist" "$app/node_modules" -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' \
  -o -name '*.d.cts' -o -name '*.tsbuildinfo' -o -iname 'CHANGELOG*' -o -iname 'README*' \) -delete
