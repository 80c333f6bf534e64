#!/usr/bin/env bash
# Starts the local PostgreSQL cluster (Debian's postgresql package) and makes sure the role `baas`
# (password `baas`, CREATEDB) exists, so that the API tests can run against PostgreSQL:
#   TEST_DATABASE_URL=postgres://baas:baas@127.0.0.1:5432/postgres npx vitest run --project 'api*'
# Prints that URL on success. Needs root (or sudo).
set -euo pipefail
SUDO=""
AS_POSTGRES="runuser -u postgres --"
[ "$(id -u)" -eq 0 ] || { SUDO="sudo"; AS_POSTGRES="sudo -u postgres"; }
cluster=$(pg_lsclusters --no-header 2>/dev/null | awk 'NR==1 {print $1" "$2}')
[ -n "$cluster" ] || { echo "no PostgreSQL cluster (install Debian's postgresql)" >&2; exit 1; }
# shellcheck disable=SC2086
$SUDO pg_ctlcluster $cluster start >/dev/null 2>&1 || true
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
$AS_POSTGRES psql -qtAc "SELECT 1 FROM pg_roles WHERE rolname = 'baas'" | grep 1 >/dev/null ||
  $AS_POSTGRES psql -qc "CREATE ROLE baas LOGIN PASSWORD 'baas' CREATEDB"
echo "postgres://baas:baas@127.0.0.1:5432/postgres"
