#!/usr/bin/env bash
# `npm run test:containers`: the image and the compose file, run for real with podman.
#   1. docker-compose.yml, as Docker's compose reads it, in each of its forms;
#   2. the base image (a local Node 20 on Debian bookworm, scripts/containers/base-image.sh), made
#      once per machine and kept in podman's image store;
#   3. the image, from this checkout's build: dist/ and the production node_modules (the Dockerfile
#      with APP_FROM=prebuilt); with --full, the Dockerfile's own build stage instead;
#   4. the one-container sandbox: a signed async charge whose three webhooks reach a receiver on
#      this machine, /console and /docs, no process as root, its HEALTHCHECK, a stop that drains;
#   5. the embedded form of docker-compose.yml under podman-compose: the same charge;
#   6. with --full, its cluster form too (scripts/containers/cluster-form.sh): PostgreSQL and
#      HAProxy images made from the same base, signed charges through the balancer on every
#      terminal of an account, one API replica killed and its terminals linked again.
# Needs the build (`npm run build`), podman with runc, podman-compose, docker-compose and
# debootstrap (.ci/run installs them). Anything missing fails the run with the reason: it never
# passes without having run the containers.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
run_id=tps-ct-$$
work=$(mktemp -d "/var/tmp/$run_id.XXXXXX")
receiver_pid=
project=

say() { echo "containers: $*"; }
fail() {
  echo "containers: FAILED: $*" >&2
  exit 1
}
# A command that fails without saying why is named, with its line.
trap 'echo "containers: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR
# A compose project's containers, volumes and network: podman-compose 1.0.3's `down` leaves the
# network, one more with each run.
compose_down() { # PROJECT
  podman-compose -p "$1" down -v && podman network rm "$1_default"
}
cleanup() {
  local code=$?
  set +e
  trap - ERR
  if [ "$code" -ne 0 ]; then
    for log in "$work"/*.log; do
      [ -s "$log" ] || continue
      echo "----- last lines of $(basename "$log") -----" >&2
      tail -n 40 "$log" | cut -c1-400 >&2
    done
  fi
  [ -n "$project" ] && compose_down "$project" >/dev/null 2>&1
  podman rm -f -v "$run_id-sandbox" >/dev/null 2>&1
  [ -n "$receiver_pid" ] && kill "$receiver_pid" 2>/dev/null
  rm -rf "$work"
  if [ "$code" -eq 0 ]; then say "all checks passed"; else echo "containers: the run failed (exit $code)" >&2; fi
}
trap cleanup EXIT

full=false
for arg in "$@"; do
  case "$arg" in
    --full) full=true ;;
    *) fail "unknown argument $arg (usage: npm run test:containers [-- --full])" ;;
  esac
done

# Podman's settings for these machines (runc, cgroupfs, events to a file, ulimits within the hard
# limit) unless the caller names its own.
export CONTAINERS_CONF=${CONTAINERS_CONF:-$root/.ci/containers.conf}
# Named after its recipe's revision and the Node it carries: a new Node here makes a new base.
BASE_IMAGE=${CONTAINERS_BASE_IMAGE:-localhost/tps-node-bookworm:$(node -p process.versions.node)-r2}
IMAGE=localhost/terminal-payment-service:containers-test
if $full; then IMAGE+=-full; fi

step_started=
step() {
  [ -n "$step_started" ] && say "  (took $((SECONDS - step_started)) s)"
  step_started=$SECONDS
  say "== $*"
}

# --- tools -----------------------------------------------------------------------------------
missing=()
for tool in podman podman-compose docker-compose curl node; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if grep -q '^runtime *= *"runc"' "$CONTAINERS_CONF" 2>/dev/null; then
  command -v runc >/dev/null || missing+=(runc)
fi
[ ${#missing[@]} -eq 0 ] || fail "missing: ${missing[*]} (Debian packages; .ci/run installs them)"
[ -f dist/scripts/sign.js ] || fail "no build in dist/: npm run build first"
podman info >/dev/null 2>"$work/podman-info.log" || fail "podman cannot run here (podman info, below)"

# --- 1. compose files, as Docker's compose reads them ------------------------------------------
step "docker-compose config: every compose file, in each of its forms"
for file in docker-compose*.yml; do
  for profile in '' postgres cluster; do
    docker-compose -f "$file" ${profile:+--profile "$profile"} config --quiet >"$work/compose-config.log" 2>&1 ||
      fail "docker-compose rejects $file${profile:+ (profile $profile)}"
    say "  $file${profile:+ --profile $profile}: valid"
  done
done

# --- 2. base image ---------------------------------------------------------------------------
step "base image $BASE_IMAGE"
bash scripts/containers/base-image.sh "$BASE_IMAGE"

# --- 3. the image ----------------------------------------------------------------------------
# The previous run's image goes first; the build's intermediate images go after it (below): a run
# leaves the base and its one image (to try by hand) in the store, nothing that piles up.
podman rmi -f "$IMAGE" >/dev/null 2>&1 || true
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
build_args=(
  --pull=never --format docker --build-arg "BASE_IMAGE=$BASE_IMAGE"
  --build-arg "VERSION=$(node -p 'require("./package.json").version')"
  --build-arg "REVISION=$revision"
  --build-arg "SOURCE=${IMAGE_SOURCE:-unknown}"
  -t "$IMAGE" -f "$root/Dockerfile"
)
if $full; then
  step "image $IMAGE: the Dockerfile's own multi-stage build (--full; npm ci and the build inside)"
  # npm inside the build trusts what npm here trusts (a proxy's own certificate authority).
  cafile=$(npm config get cafile)
  [ -f "$cafile" ] || cafile=${NODE_EXTRA_CA_CERTS:-}
  if [ -f "$cafile" ]; then
    build_args+=(--volume "$cafile:/run/build-ca.crt:ro" --build-arg NPM_CONFIG_CAFILE=/run/build-ca.crt)
  fi
  # APP_FROM named although it is the default: buildah 1.28 (podman 4.3) skips a stage that FROM
  # names through an ARG's default value.
  podman build "${build_args[@]}" --build-arg APP_FROM=build "$root" >"$work/build.log" 2>&1 ||
    fail "podman build (full) failed"
else
  step "image $IMAGE: from this checkout's dist/ and production node_modules (APP_FROM=prebuilt)"
  bash scripts/containers/stage-prebuilt.sh "$work/context"
  podman build "${build_args[@]}" --build-arg APP_FROM=prebuilt "$work/context" >"$work/build.log" 2>&1 ||
    fail "podman build (prebuilt) failed"
  rm -rf "$work/context"
fi
final_id=$(podman image inspect --format '{{.Id}}' "$IMAGE")
for id in $(sed -n 's/^--> \([0-9a-f]\{6,\}\)$/\1/p' "$work/build.log"); do
  [[ $final_id == "$id"* ]] || podman rmi "$id" >/dev/null 2>&1 || true
done
image_size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base_size=$(podman image inspect --format '{{.Size}}' "$BASE_IMAGE")
say "  image $((image_size / 1000000)) MB, $(((image_size - base_size) / 1000000)) MB over the base"
config=$(podman image inspect --format '{{.Config.User}} {{json .Config.ExposedPorts}} {{json .Config.Healthcheck}} {{index .Config.Labels "org.opencontainers.image.revision"}}' "$IMAGE")
[[ $config == "node "* ]] || fail "the image's user is not node: $config"
[[ $config == *'3000/tcp'*'3100/tcp'* ]] || fail "the image does not expose 3000 and 3100: $config"
[[ $config == *'"tps-entrypoint","health"'* ]] || fail "the image has no HEALTHCHECK (built without --format docker?): $config"
[[ $config == *" $revision" ]] || fail "the image's revision label is not this checkout's: $config"
say "  user node, ports 3000 and 3100, HEALTHCHECK tps-entrypoint health, labelled with this revision"

# --- a receiver on this machine, which the containers reach at HOST_ADDRESS ---------------------
free_port() { node -e 'const s=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})'; }
HOST_ADDRESS=${HOST_ADDRESS:-$(hostname -I | awk '{ print $1 }')}
[ -n "$HOST_ADDRESS" ] || fail "no address of this machine for the containers to reach (set HOST_ADDRESS)"
hook_port=$(free_port)
node -e '
  const [port, file, host] = process.argv.slice(1);
  require("http").createServer((q, s) => {
    let body = "";
    q.on("data", (c) => (body += c));
    q.on("end", () => { require("fs").appendFileSync(file, body.replace(/\n/g, " ") + "\n"); s.end(); });
  }).listen(Number(port), host);
' "$hook_port" "$work/webhooks.txt" "$HOST_ADDRESS" &
receiver_pid=$!
say "  webhook receiver on $HOST_ADDRESS:$hook_port (host.docker.internal inside the containers)"

wait_ready() { # URL CONTAINER...
  local url=$1 i
  shift
  for i in $(seq 1 90); do
    curl -sf -o /dev/null "$url" && return 0
    for container in "$@"; do
      [ "$(podman inspect --format '{{.State.Running}}' "$container" 2>/dev/null)" = true ] ||
        { podman logs "$container" >"$work/$container.log" 2>&1; fail "$container stopped before it was ready"; }
    done
    sleep 1
  done
  for container in "$@"; do podman logs "$container" >"$work/$container.log" 2>&1; done
  fail "$url not ready after 90 s"
}

received() { grep -F "$1" "$work/webhooks.txt" 2>/dev/null | grep -qF "\"$2\""; }

# A signed async charge of an account of its own, and its three webhooks (README, "Quickstart").
charge_with_webhooks() { # API_URL LABEL
  local api=$1 label=$2 account merchant secret serial id body headers answer i
  account=$(curl -sf -X POST "$api/sandbox/accounts" -H 'content-type: application/json' \
    -d '{"terminals":2,"pace":"instant"}') || fail "$label: POST /sandbox/accounts failed"
  merchant=$(node -p 'JSON.parse(process.argv[1]).merchant_id' "$account")
  secret=$(node -p 'JSON.parse(process.argv[1]).secret_key' "$account")
  serial=$(node -p 'JSON.parse(process.argv[1]).terminals[1].serialNumber' "$account")
  id=$(node -p 'crypto.randomUUID()')
  body='{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"'$id'","events_webhook_url":"http://host.docker.internal:'$hook_port'/hook"}'
  headers=$(MERCHANT_ID=$merchant SECRET_KEY=$secret node dist/scripts/sign.js POST "/terminal/v1/$serial/async/charge" "$body")
  answer=$(curl -s -w ' HTTP %{http_code}' -X POST "$api/terminal/v1/$serial/async/charge" \
    -H "${headers%%$'\n'*}" -H "${headers##*$'\n'}" -H 'content-type: application/json' --data-raw "$body")
  [[ $answer == *'HTTP 20'* ]] || fail "$label: the signed charge was refused: $answer"
  say "  $label: signed async charge accepted: ${answer:0:120}…"
  for i in $(seq 1 60); do
    if received "$id" CARD_PRESENTED && received "$id" APPROVAL_REQUESTED && received "$id" APPROVAL; then
      say "  $label: its three webhooks (CARD_PRESENTED, APPROVAL_REQUESTED, APPROVAL) reached the host"
      return 0
    fi
    sleep 0.5
  done
  fail "$label: the charge's three webhooks did not reach the receiver in 30 s (got: $(grep -cF "$id" "$work/webhooks.txt" 2>/dev/null || echo 0))"
}

# --- 4. the one-container sandbox ------------------------------------------------------------
step "one-container sandbox ($IMAGE, no command)"
sandbox=$run_id-sandbox
api_port=$(free_port)
podman run -d --name "$sandbox" -p "127.0.0.1:$api_port:3000" \
  --add-host "host.docker.internal:$HOST_ADDRESS" "$IMAGE" >"$work/podman-run.log" 2>&1 ||
  fail "podman run failed"
wait_ready "http://127.0.0.1:$api_port/ready" "$sandbox"
say "  ready on 127.0.0.1:$api_port"
charge_with_webhooks "http://127.0.0.1:$api_port" sandbox
for page in /console /docs; do
  code=$(curl -s -o /dev/null -L -w '%{http_code}' "http://127.0.0.1:$api_port$page")
  [ "$code" = 200 ] || fail "GET $page answered $code"
  say "  GET $page: 200"
done
users=$(podman top "$sandbox" user comm | tail -n +2)
if awk '{ print $1 }' <<<"$users" | grep -qx root; then fail "a process runs as root: $users"; fi
say "  processes: $(awk '{ print $1 "/" $2 }' <<<"$users" | sort | uniq -c | xargs), none as root"
podman healthcheck run "$sandbox" >"$work/healthcheck.log" 2>&1 || fail "podman healthcheck run: unhealthy"
say "  podman healthcheck run: healthy"
stop_started=$SECONDS
podman stop -t 40 "$sandbox" >"$work/podman-stop.log" 2>&1 || fail "podman stop failed"
exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$sandbox")
podman logs "$sandbox" >"$work/$sandbox.log" 2>&1
[ "$exit_code" = 0 ] || fail "the sandbox exited $exit_code after podman stop (not 0)"
grep -q '"context":"Drain".*stopped in' "$work/$sandbox.log" || fail "the API did not drain on SIGTERM"
say "  podman stop -t 40: drained and exited 0 in $((SECONDS - stop_started)) s"
podman rm -v "$sandbox" >/dev/null 2>&1

# --- 5. the compose file's embedded form under podman-compose ----------------------------------
step "docker-compose.yml's embedded form (api, terminal-simulator) under podman-compose"
project=$run_id
compose_api_port=$(free_port)
export TPS_IMAGE=$IMAGE API_PORT=$compose_api_port SIMULATOR_PORT=$(free_port) HOST_ADDRESS
podman-compose -p "$project" up -d --no-build api terminal-simulator >"$work/podman-compose-up.log" 2>&1 ||
  fail "podman-compose up failed"
wait_ready "http://127.0.0.1:$compose_api_port/ready" "${project}_api_1" "${project}_terminal-simulator_1"
say "  ready on port $compose_api_port"
charge_with_webhooks "http://127.0.0.1:$compose_api_port" compose
compose_down "$project" >"$work/podman-compose-down.log" 2>&1 || fail "podman-compose down failed"
project=

# --- 6. the cluster form (--full) --------------------------------------------------------------
if $full; then
  # shellcheck source=containers/cluster-form.sh
  source scripts/containers/cluster-form.sh
fi
step "done"
