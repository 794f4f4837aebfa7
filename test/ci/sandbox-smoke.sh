#!/usr/bin/env bash
# A CI job against the sandbox, as the README's recipe runs one: start it, wait until it is ready,
# create an account of its own, run a charge, delete the account and stop. Needs a built checkout
# (npm ci && npm run build), bash, curl and node. Ports: API_PORT (3000), SIMULATOR_PORT (3100).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export API_PORT=${API_PORT:-3000} SIMULATOR_PORT=${SIMULATOR_PORT:-3100}
API=http://127.0.0.1:$API_PORT
DATA=$(mktemp -d)

API_DATABASE_URL=sqlite:$DATA/api.sqlite SIMULATOR_DATABASE_URL=sqlite:$DATA/terminal.sqlite \
  node "$ROOT/dist/scripts/start.js" >"$DATA/sandbox.log" 2>&1 &
SANDBOX=$!
teardown() {
  kill "$SANDBOX" 2>/dev/null || true
  wait "$SANDBOX" 2>/dev/null || true
  rm -rf "$DATA"
}
trap teardown EXIT

node "$ROOT/dist/scripts/sandbox-wait.js" --url "$API" --timeout 60 --pid "$SANDBOX"

# An account of this job's own: nobody else's charges, clock or terminals get in the way.
ACCOUNT=$(curl -sSf -X POST "$API/sandbox/accounts")
MERCHANT_ID=$(node -p 'JSON.parse(process.argv[1]).merchant_id' "$ACCOUNT")
SECRET_KEY=$(node -p 'JSON.parse(process.argv[1]).secret_key' "$ACCOUNT")
export MERCHANT_ID SECRET_KEY

# call METHOD PATH [BODY]: a request signed with the account's credentials.
call() {
  local headers extra=()
  headers=$(node "$ROOT/dist/scripts/sign.js" "$1" "$2" "${3-}")
  if [ -n "${3-}" ]; then extra=(-H 'content-type: application/json' --data-raw "$3"); fi
  curl -sS -X "$1" "$API$2" -H "${headers%%$'\n'*}" -H "${headers##*$'\n'}" "${extra[@]}"
}

ID=$(node -p 'crypto.randomUUID()')
ANSWER=$(call POST /terminal/v1/sync/charge \
  '{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"'"$ID"'"}')
node -e 'const a = JSON.parse(process.argv[1]); if (a.approved !== true) { console.error(a); process.exit(1); }' "$ANSWER"
echo "charge $ID approved"

# status METHOD PATH: the HTTP status of a signed request without a body.
status() {
  local headers
  headers=$(node "$ROOT/dist/scripts/sign.js" "$1" "$2")
  curl -sS -o /dev/null -w '%{http_code}' -X "$1" "$API$2" -H "${headers%%$'\n'*}" -H "${headers##*$'\n'}"
}
[ "$(status DELETE /sandbox/accounts/me)" = 204 ] || { echo "the account was not deleted" >&2; exit 1; }
[ "$(status GET /sandbox/clock)" = 401 ] || { echo "the deleted account still answers" >&2; exit 1; }
echo "account $MERCHANT_ID deleted"
