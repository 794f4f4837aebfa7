#!/bin/sh
# The entry point of scripts/containers/postgres.Dockerfile. Debian's package makes its clusters
# with its own tools and listens on localhost only; docker-compose.yml is written for the official
# image instead, so this does what that image does with the same variables: on an empty volume,
# initdb with POSTGRES_USER as superuser and POSTGRES_PASSWORD, POSTGRES_DB, the scripts in
# /docker-entrypoint-initdb.d; then PostgreSQL on every address, a password (scram-sha-256)
# required from the network and none on the container's own socket (its healthcheck).
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"

if [ "$(id -u)" = 0 ]; then
  # A new volume may come owned by root: the server runs as postgres, in a folder only it reads.
  mkdir -p "$PGDATA" /run/postgresql
  chown postgres:postgres "$PGDATA" /run/postgresql
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  [ -n "${POSTGRES_PASSWORD:-}" ] || { echo "postgres-entrypoint: POSTGRES_PASSWORD is required" >&2; exit 1; }
  password_file=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$password_file" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$password_file"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  # Set up on the socket alone: nobody connects from outside before it is done.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -qc "CREATE DATABASE \"$POSTGRES_DB\""
  fi
  for script in /docker-entrypoint-initdb.d/*.sql; do
    [ -f "$script" ] || continue
    echo "postgres-entrypoint: running $script"
    psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -q -f "$script"
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "postgres-entrypoint: database $POSTGRES_DB made for $POSTGRES_USER"
fi

exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
