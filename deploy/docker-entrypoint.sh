#!/bin/sh
# The image's entry point, run by tini (which passes SIGTERM on, so the apps drain before they exit):
#   sandbox (the default)  the API and the terminal simulator together, as `npm start` runs them
#   api | simulator        one app, as docker-compose.yml runs each service
#   health                 the container's liveness, for HEALTHCHECK: GET /health of the app it runs
#   anything else          run as given (`sh`, `node dist/scripts/sign.js …`)
# Data (SQLite files, the sandbox's local secrets key) goes to /data, through /app/data.
set -eu

# Where `health` asks: the app this container runs, written down when it starts.
health_url_file=/tmp/tps-health-url

case "${1:-sandbox}" in
  sandbox)
    echo "http://127.0.0.1:${API_PORT:-${PORT:-3000}}/health" >"$health_url_file"
    exec node dist/scripts/start.js
    ;;
  api)
    echo "http://127.0.0.1:${PORT:-3000}/health" >"$health_url_file"
    exec node dist/apps/api/src/main.js
    ;;
  simulator)
    echo "http://127.0.0.1:${PORT:-3100}/health" >"$health_url_file"
    exec node dist/apps/terminal-simulator/src/main.js
    ;;
  health)
    # Liveness, never /ready: a slow database or an unlinked terminal must not get it restarted.
    exec node -e "fetch(process.argv[1], { signal: AbortSignal.timeout(2500) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" \
      "$(cat "$health_url_file" 2>/dev/null || echo "http://127.0.0.1:${PORT:-3000}/health")"
    ;;
  *)
    exec "$@"
    ;;
esac
