#!/usr/bin/env bash
# Runs the API tests against a throwaway PostgreSQL cluster on a private port, then removes it.
#   api/test/with-postgres.sh                # all API tests
#   api/test/with-postgres.sh -t 'SIWE'      # extra arguments go to jest
# Env: PG_TEST_PORT (default 55432). Installs Debian's postgresql when no server binaries exist.
set -euo pipefail

PORT="${PG_TEST_PORT:-55432}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
fi
PGBIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"

# PostgreSQL refuses to run as root: as root, run the server as the postgres user.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

DIR="$(mktemp -d /tmp/api-pg.XXXXXX)"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
cleanup() {
  as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT

as_pg "$PGBIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
# Durability is pointless for a throwaway cluster; turning it off makes the tests faster.
as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null

cd "$ROOT"
# Each test file creates its own database on this server and drops it afterwards.
TEST_DATABASE_URL="postgres://postgres@127.0.0.1:${PORT}/postgres" npx jest api "$@"
