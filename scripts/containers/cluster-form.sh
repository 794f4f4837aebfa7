# The cluster form of docker-compose.yml (its `cluster` profile) under podman-compose, for
# `npm run test:containers -- --full`: PostgreSQL and HAProxy images made here from the base image
# with Debian's packages (postgres.Dockerfile, haproxy.Dockerfile beside this file) under local
# names, passed through POSTGRES_IMAGE and HAPROXY_IMAGE; signed charges through the balancer on
# every terminal of an account; one API replica killed and its terminals linked again; down -v.
# Sourced by scripts/test-containers.sh, whose say, fail, step, free_port, wait_ready,
# compose_down, $work, $run_id, $IMAGE, $BASE_IMAGE, $HOST_ADDRESS and $project (for its cleanup)
# it uses.

# Terminals of the account charged: both simulator shards and both replicas hold some of them.
cluster_terminals=12
# How long the killed replica's terminals may take to be linked again and charged through the
# other one: its checks take it out of the rotation within 3 s (haproxy-cluster.cfg: inter 1s,
# fall 2), and the terminals link again within a few seconds (docs/scaling.md).
relink_bound_s=30

step "PostgreSQL and HAProxy images from $BASE_IMAGE, Debian's packages"
# Named after the base, which they are made from; the build's layer cache makes a second run quick.
peer_tag=${BASE_IMAGE##*:}
POSTGRES_IMAGE=localhost/tps-postgres-15:$peer_tag
HAPROXY_IMAGE=localhost/tps-haproxy:$peer_tag
for peer in postgres:$POSTGRES_IMAGE haproxy:$HAPROXY_IMAGE; do
  podman build --pull=never --format docker --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "${peer#*:}" \
    -f "scripts/containers/${peer%%:*}.Dockerfile" scripts/containers >"$work/build-${peer%%:*}.log" 2>&1 ||
    fail "podman build of the ${peer%%:*} image failed"
  say "  ${peer#*:}: $(($(podman image inspect --format '{{.Size}}' "${peer#*:}") / 1000000)) MB"
done

step "docker-compose.yml's cluster form (postgres, api-1, api-2, balancer, terminal-1, terminal-2)"
project=$run_id-cluster
balancer_port=$(free_port)
export TPS_IMAGE=$IMAGE POSTGRES_IMAGE HAPROXY_IMAGE HOST_ADDRESS
export BALANCER_PORT=$balancer_port BALANCER_STATS_PORT=$(free_port)
# podman-compose 1.0.3 starts a service's dependencies but never waits for their healthchecks
# (`condition: service_healthy`): the containers are made first, then started as Docker's compose
# would start them, each group once the one it depends on is healthy (`up --no-start` without -d:
# 1.0.3 passes -d on to `podman create`, which refuses it).
podman-compose -p "$project" up --no-build --no-start postgres api-1 api-2 balancer terminal-1 terminal-2 \
  >"$work/podman-compose-cluster-up.log" 2>&1 || fail "podman-compose up --no-start failed"
container() { echo "${project}_$1_1"; }
start_healthy() { # SERVICE...: started, then healthy (podman healthcheck run) within 90 s each
  local service name i
  for service in "$@"; do
    podman start "$(container "$service")" >>"$work/podman-compose-cluster-up.log" 2>&1 ||
      fail "podman start $(container "$service") failed"
  done
  for service in "$@"; do
    name=$(container "$service")
    for i in $(seq 1 90); do
      podman healthcheck run "$name" >/dev/null 2>&1 && break
      if [ "$(podman inspect --format '{{.State.Running}}' "$name")" != true ] || [ "$i" = 90 ]; then
        podman logs "$name" >"$work/$name.log" 2>&1
        fail "$name not healthy (podman healthcheck run) after $i s"
      fi
      sleep 1
    done
    say "  $service healthy"
  done
}
start_healthy postgres
start_healthy api-1 api-2
for service in balancer terminal-1 terminal-2; do
  podman start "$(container "$service")" >>"$work/podman-compose-cluster-up.log" 2>&1 ||
    fail "podman start $(container "$service") failed"
done
balancer=http://127.0.0.1:$balancer_port
wait_ready "$balancer/ready" "$(container balancer)" "$(container terminal-1)" "$(container terminal-2)" \
  "$(container api-1)" "$(container api-2)"
say "  ready through the balancer on port $balancer_port (every terminal of both shards linked)"

# --- signed charges through the balancer -----------------------------------------------------
account=$(curl -sf -X POST "$balancer/sandbox/accounts" -H 'content-type: application/json' \
  -d "{\"terminals\":$cluster_terminals,\"pace\":\"instant\"}") || fail "cluster: POST /sandbox/accounts failed"
export MERCHANT_ID SECRET_KEY
MERCHANT_ID=$(node -p 'JSON.parse(process.argv[1]).merchant_id' "$account")
SECRET_KEY=$(node -p 'JSON.parse(process.argv[1]).secret_key' "$account")
mapfile -t serials < <(node -e 'for (const t of JSON.parse(process.argv[1]).terminals) console.log(t.serialNumber)' "$account")
[ "${#serials[@]}" = "$cluster_terminals" ] || fail "cluster: the account has ${#serials[@]} terminals, not $cluster_terminals"

# A signed sync charge in the Cloud form on a terminal, under a client_transaction_id: its answer
# and HTTP status, waited for up to SECONDS (the service's own reply timeout is 90 s).
sync_charge() { # SERIAL CLIENT_TRANSACTION_ID [SECONDS]
  local path="/terminal/v1/$1/sync/charge" body headers
  body='{"amount":{"iva":1600,"subtotal_iva":10000,"subtotal_iva0":0},"client_transaction_id":"'$2'"}'
  headers=$(node dist/scripts/sign.js POST "$path" "$body")
  curl -s -m "${3:-100}" -w ' HTTP %{http_code}' -X POST "$balancer$path" -H "${headers%%$'\n'*}" \
    -H "${headers##*$'\n'}" -H 'content-type: application/json' --data-raw "$body"
}
approved() { [[ $1 == *'HTTP 200' && $1 == *'"transaction_reference"'* ]]; }
for serial in "${serials[@]}"; do
  answer=$(sync_charge "$serial" "$(node -p 'crypto.randomUUID()')")
  approved "$answer" || fail "cluster: the signed charge on $serial was not answered 200: ${answer:0:300}"
done
say "  a signed sync charge on each of the account's ${#serials[@]} terminals: 200, through the balancer"

# Which replica holds each terminal's link, as the replicas store it: REPLICA_ID is the container's
# host name (its short id) and the process id.
holders() {
  podman exec "$(container postgres)" psql -U tps -d tps_api -Atc \
    "SELECT replica_id, count(*) FROM terminal_uplinks WHERE serial_number IN ('$(
      IFS=,
      echo "${serials[*]}" | sed "s/,/','/g"
    )') GROUP BY replica_id ORDER BY count(*) DESC"
}
replica_of() { podman inspect --format '{{.Config.Hostname}}' "$(container "$1")"; }
held=$(holders)
say "  links held (replica|terminals): $(echo "$held" | xargs)"
victim= survivor=
for replica in api-1 api-2; do
  if [[ $(head -n 1 <<<"$held") == "$(replica_of "$replica")-"* ]]; then victim=$replica; else survivor=$replica; fi
done
[ -n "$victim" ] && [ -n "$survivor" ] || fail "cluster: the links are held by neither replica: $held"
victim_links=$(head -n 1 <<<"$held" | cut -d'|' -f2)

# --- a replica killed --------------------------------------------------------------------------
step "$victim killed (podman kill), holding $victim_links of the account's links: its terminals linked again through $survivor"
podman kill "$(container "$victim")" >/dev/null 2>&1 || fail "podman kill $(container "$victim") failed"
now_ms() { date +%s%3N; }
killed_at=$(now_ms)
# Every terminal charged at once, each round, each under one client_transaction_id asked again with
# it until answered 200 (contract, "Answers a caller can act on"): none is charged twice, whatever
# its attempts met.
declare -A pending=() refused=()
for serial in "${serials[@]}"; do pending[$serial]=$(node -p 'crypto.randomUUID()'); done
while [ "${#pending[@]}" -gt 0 ]; do
  left=$((relink_bound_s - ($(now_ms) - killed_at) / 1000))
  [ "$left" -gt 0 ] || break
  charges=()
  for serial in "${!pending[@]}"; do
    sync_charge "$serial" "${pending[$serial]}" "$left" >"$work/charge-$serial" &
    charges+=($!)
  done
  for charge in "${charges[@]}"; do wait "$charge" || true; done
  for serial in "${!pending[@]}"; do
    answer=$(<"$work/charge-$serial")
    # Its status first: the answer's start follows.
    if approved "$answer"; then unset "pending[$serial]"; else refused[$serial]="${answer##*HTTP } ${answer:0:200}"; fi
  done
  [ "${#pending[@]}" -eq 0 ] || sleep 0.5
done
recovered_ms=$(($(now_ms) - killed_at))
if [ "${#pending[@]}" -gt 0 ] || [ "$recovered_ms" -gt $((relink_bound_s * 1000)) ]; then
  for serial in "${!pending[@]}"; do echo "containers: $serial last answered: ${refused[$serial]:-nothing}" >&2; done
  podman logs "$(container "$survivor")" >"$work/$(container "$survivor").log" 2>&1
  podman logs "$(container balancer)" >"$work/$(container balancer).log" 2>&1
  fail "cluster: ${#pending[@]} terminals not charged through the balancer within $relink_bound_s s of the kill"
fi
met=$(for answer in "${refused[@]}"; do echo "HTTP ${answer%% *}"; done | sort | uniq -c | xargs)
say "  a signed sync charge on each of the ${#serials[@]} terminals answered 200 again within $((recovered_ms / 1000)).$((recovered_ms / 100 % 10)) s of the kill (bound $relink_bound_s s); ${#refused[@]} of them met another answer first${met:+ ($met)}"
survivor_id=$(replica_of "$survivor")
held=$(holders)
[[ $held == "$survivor_id-"*"|${#serials[@]}" ]] || fail "cluster: the links are not all held by $survivor: $held"
curl -sf -o /dev/null "$balancer/ready" || fail "cluster: GET /ready through the balancer is not 200 after the kill"
say "  every link of the account held by $survivor ($held), GET /ready 200"

compose_down "$project" >"$work/podman-compose-cluster-down.log" 2>&1 || fail "podman-compose down -v failed"
project=
