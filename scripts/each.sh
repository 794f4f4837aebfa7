#!/usr/bin/env bash
# Runs each argument as a command, one after another, every one of them even when one before
# failed (`npm test`: a failing suite must not hide the results of the projects after it); names
# the ones that failed and exits 1 if any did.
set -uo pipefail

failed=()
for command in "$@"; do
  bash -c "$command" || failed+=("$command")
done

if [ ${#failed[@]} -gt 0 ]; then
  printf 'failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
