#!/usr/bin/env bash
# What `npm test` does before jest: the build, the type-check, ESLint, Prettier and the OpenAPI
# lint. Each is one single-threaded process and none reads what another writes (the OpenAPI lint
# reads the build, so it follows it), so they run side by side to keep every core busy. Each one's
# output is printed whole once it ends; the script fails if any of them failed.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

names=()
pids=()
run() {
  local name=$1
  shift
  names+=("$name")
  ("$@" >"$logs/$name" 2>&1) &
  pids+=($!)
}

run build-then-lint-openapi sh -c 'npm run build && npm run lint:openapi'
run typecheck npm run typecheck
run lint-eslint npm run lint:eslint
run lint-prettier npm run lint:prettier

failed=()
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed+=("${names[$i]}")
  echo "::: ${names[$i]}"
  cat "$logs/${names[$i]}"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
