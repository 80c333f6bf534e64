#!/usr/bin/env bash
# Runs several server processes on one PostgreSQL database (docs/ledger.md section 10), each the
# production bundle as `npm start` runs it:
#   DATABASE_URL=postgres://user:pass@host:5432/db bash scripts/multi-instance.sh [count] [first-port]
# Defaults: 3 instances on ports 8081, 8082, 8083, each with its own DATA_DIR (uploads) under
# ./data/instance-N. They start one after the other (the first migrates the database and creates the
# accounts), then share everything through PostgreSQL: sessions (any instance accepts any token), the
# registry and the ledger, whose blocks are cut by the one instance holding the orderer advisory lock.
# Put a reverse proxy in front (nginx `upstream` / HAProxy `backend` over the ports) or spread the
# clients yourself. Ctrl-C (or SIGTERM) stops all of them; kill one with `kill -9 <pid>` to watch
# another take over the orderer role (the log says which instance holds it).
# Other variables (ADMIN_PASSWORD, LEDGER_BATCH_SIZE, ...) are passed through; see README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL to a postgres:// URL (e.g. DATABASE_URL=\$(bash scripts/postgres-test-db.sh) for the local test cluster)}"
# Every instance signs checkpoints with the same key (whichever is the orderer signs): LEDGER_SIGNING_KEY,
# or a seed created once in data/multi-instance-signing-key.
if [ -z "${LEDGER_SIGNING_KEY:-}" ]; then
  mkdir -p data
  [ -f data/multi-instance-signing-key ] || (umask 077 && head -c 32 /dev/urandom | base64 > data/multi-instance-signing-key)
  LEDGER_SIGNING_KEY=$(cat data/multi-instance-signing-key)
fi
export LEDGER_SIGNING_KEY
count=${1:-3}
first=${2:-8081}
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait
}
trap stop INT TERM EXIT
# Built once, run as `npm start` runs it: the console (dist/) and the server bundle (server/dist/).
npm run build --silent
for i in $(seq 0 $((count - 1))); do
  port=$((first + i))
  mkdir -p "data/instance-$i"
  MALLOC_ARENA_MAX=2 PORT=$port DATA_DIR="data/instance-$i" node scripts/run-built.mjs server &
  pids+=($!)
  # Ready: the database answers, migrations are applied, the signer works, the orderer role is known.
  for _ in $(seq 1 240); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/readyz" && break
    sleep 0.5
  done
  echo "instance $i: http://127.0.0.1:$port/ (pid ${pids[-1]})"
done
echo "the orderer logs 'process <pid> is now the orderer'; in PostgreSQL its connection is application_name baas-ledger-<pid>-..."
wait
