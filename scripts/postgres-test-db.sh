#!/usr/bin/env bash
# Starts the tests' own PostgreSQL cluster and makes sure the role `baas` (password `baas`, CREATEDB)
# exists, so that the API tests can run against PostgreSQL:
#   TEST_DATABASE_URL=$(bash scripts/postgres-test-db.sh) npx vitest run --project 'api*'
# Prints that URL (postgres://baas:baas@127.0.0.1:PORT/postgres) on success.
#
# The cluster is a throwaway one, not the machine's: Debian's PostgreSQL server binaries (the newest under
# /usr/lib/postgresql), a data directory in memory (PG_TEST_DIR, default /dev/shm/baas-pg-test-PORT),
# listening on 127.0.0.1:PG_TEST_PORT (default 54329) and on a socket inside that directory (mode 0700:
# only its owner reaches it), with the durability settings off that only matter when the machine itself
# crashes (fsync, synchronous_commit, full_page_writes): PostgreSQL's own advice for a test database
# ("Non-Durable Settings" in its manual). A test that kills a server process does not lose a committed
# row with them, since PostgreSQL keeps running. The machine's cluster, if any, is left alone.
# Created on first use (initdb, a few seconds), started when it is not running. Needs root (it then runs
# the cluster as the `postgres` user), or runs it as the calling user.
#
# `--durable`: a second cluster for the benchmarks (bench/multiInstance.ts), with PostgreSQL's default
# durability, on disk (default /var/tmp/baas-pg-durable-PORT) and port 54330, so that their figures are
# those of a real deployment's commits.
set -euo pipefail
DURABLE=0
[ "${1:-}" = --durable ] && DURABLE=1
if [ $DURABLE -eq 1 ]; then
  PORT=${PG_TEST_PORT:-54330}
  DIR=${PG_TEST_DIR:-/var/tmp/baas-pg-durable-$PORT}
  SETTINGS=""
else
  PORT=${PG_TEST_PORT:-54329}
  DIR=${PG_TEST_DIR:-/dev/shm/baas-pg-test-$PORT}
  SETTINGS="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
fi
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$BIN" ] && [ -x "$BIN/initdb" ] || {
  echo "no PostgreSQL server binaries under /usr/lib/postgresql (install Debian's postgresql)" >&2
  exit 1
}
AS=()
if [ "$(id -u)" -eq 0 ]; then AS=(runuser -u postgres --); fi
if [ ! -f "$DIR/PG_VERSION" ]; then
  rm -rf "$DIR"
  mkdir -p "$DIR"
  chmod 700 "$DIR"
  [ ${#AS[@]} -eq 0 ] || chown postgres: "$DIR"
  "${AS[@]}" "$BIN/initdb" -D "$DIR" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >"$DIR.initdb.log" 2>&1 || {
    cat "$DIR.initdb.log" >&2
    exit 1
  }
fi
if ! "${AS[@]}" "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
  "${AS[@]}" "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 start -o \
    "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 $SETTINGS" \
    >/dev/null || {
    tail -n 20 "$DIR/server.log" >&2
    exit 1
  }
fi
psql_admin() { "${AS[@]}" "$BIN/psql" -h "$DIR" -p "$PORT" -U postgres -d postgres -qtA "$@"; }
[ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = 'baas'")" = 1 ] ||
  psql_admin -c "CREATE ROLE baas LOGIN PASSWORD 'baas' CREATEDB" >/dev/null
echo "postgres://baas:baas@127.0.0.1:$PORT/postgres"
