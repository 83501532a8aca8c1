#!/usr/bin/env bash
# Runs the API tests against a throwaway PostgreSQL cluster on a private port, then removes it.
#   api/test/with-postgres.sh                # all API tests
#   api/test/with-postgres.sh -t 'SIWE'      # extra arguments go to jest
# Env: PG_TEST_PORT (default: a free port the system gives). Installs Debian's postgresql when no
# server binaries exist.
set -euo pipefail

# A fixed port can be held by a listener the tests left or the system handed out; ask for a free one.
free_port() { node -e "const s = require('net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"; }
PORT="${PG_TEST_PORT:-$(free_port)}"
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
if ! as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null; then
  # The cluster is removed on exit: say why it did not start while its log still exists.
  echo "PostgreSQL did not start on port $PORT; its log:" >&2
  cat "$DIR/server.log" >&2 || true
  exit 1
fi

cd "$ROOT"
# Each test file creates its own database on this server and drops it afterwards.
TEST_DATABASE_URL="postgres://postgres@127.0.0.1:${PORT}/postgres" npx jest api "$@"
