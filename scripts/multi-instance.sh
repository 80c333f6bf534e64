#!/usr/bin/env bash
# Runs several server processes on one PostgreSQL database (docs/ledger.md section 10), each the
# production bundle as `npm start` runs it:
#   DATABASE_URL=postgres://user:pass@host:5432/db bash scripts/multi-instance.sh [--proxy] [count] [first-port]
# Defaults: 3 instances on ports 8081, 8082, 8083, each with its own DATA_DIR (uploads) under
# ./data/instance-N and its key dir (LEDGER_KEY_DIR's default: its last signed checkpoints) beside it,
# ./data/instance-N-keys. They start one after the other (the first migrates the database and creates the
# accounts), then share everything through PostgreSQL: sessions (any instance accepts any token), the
# registry and the ledger, whose blocks are cut by the one instance holding the orderer advisory lock.
# With --proxy (listening on PROXY_PORT, default 8080), nginx runs in front of them (scripts/nginx-proxy.sh: failover,
# X-Forwarded-*, X-Request-Id; its config and logs in data/proxy/), and the instances trust it
# (TRUST_PROXY=127.0.0.1). Uploads and rate limits are shared through PostgreSQL (README "Several
# instances"). Without it, put your own proxy in front or spread the clients yourself. Ctrl-C (or SIGTERM) stops all of them; kill one with `kill -9 <pid>` to watch
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
proxy=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --proxy)
      proxy=${PROXY_PORT:-8080}
      shift
      ;;
    *) args+=("$1"); shift ;;
  esac
done
count=${args[0]:-3}
first=${args[1]:-8081}
[ -n "$proxy" ] && export TRUST_PROXY=${TRUST_PROXY:-127.0.0.1}
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
if [ -n "$proxy" ]; then
  ports=()
  for i in $(seq 0 $((count - 1))); do ports+=($((first + i))); done
  bash scripts/nginx-proxy.sh data/proxy "$proxy" "${ports[@]}" &
  pids+=($!)
  echo "proxy: http://127.0.0.1:$proxy/ (nginx, pid ${pids[-1]})"
fi
echo "the orderer logs 'process <pid> is now the orderer'; in PostgreSQL its connection is application_name baas-ledger-<pid>-..."
wait
