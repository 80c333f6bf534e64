#!/usr/bin/env bash
# All the checks and all the tests, as CI runs them: system packages for the browser tests, generated
# files up to date, type-check, lint, the layers' import rules, format and the build (two lanes at a time:
# each check uses one core) beside the API suite on PostgreSQL, then every vitest project on SQLite (unit,
# api, api-isolated, api-serial, browser).
# Ends with the time table (scripts/test-timing/summary.mjs): each step's wall time, the tests per pass and
# project, the 15 slowest test files, and a warning for a test file over 3 minutes.
# A failing step stops the run (set -e); the time table is printed all the same.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
STEPS="$PWD/.tmp/test-steps.tsv"
export TEST_TIMING_FILE="$PWD/.tmp/test-timing.jsonl"
: >"$STEPS"
: >"$TEST_TIMING_FILE"
now() { date +%s%3N; }
# step NAME COMMAND...: runs COMMAND under a heading, appends its wall time to $STEPS; returns its status.
step() {
  local name=$1 start status=0
  shift
  echo "== $name"
  start=$(now)
  "$@" || status=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$start" "$(now)" "$status" >>"$STEPS"
  return $status
}
summary() { node scripts/test-timing/summary.mjs "$STEPS" "$TEST_TIMING_FILE" || true; }
# The tests' temporary files (SQLite databases, data directories, repository copies, browser profiles)
# in memory where the machine has /dev/shm (TEST_TMPDIR chooses another place), removed at the end.
if [ -z "${TEST_TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then TEST_TMPDIR=/dev/shm; fi
TMPDIR=$(mktemp -d "${TEST_TMPDIR:-/tmp}/baas-tests-XXXXXX")
export TMPDIR
trap 'summary; rm -rf "$TMPDIR"' EXIT

step "system packages" bash scripts/ensure-system-deps.sh

# The checks in two lanes side by side, and beside them the API suite on PostgreSQL (it needs neither
# the checks nor the build): each check uses one core, and the API suite waits on PostgreSQL part of the
# time. Each lane's output is printed once it is done.
step "PostgreSQL for the tests" bash -c 'bash scripts/postgres-test-db.sh > .tmp/test-database-url'
REPORT=(--reporter=default --reporter=./scripts/test-timing/reporter.ts)
checks_a() {
  step "codegen check" npx tsx scripts/codegen.ts --check &&
    step "screens and calls table" npx tsx scripts/docs-screens.ts --check &&
    step "typecheck" npx tsc --noEmit &&
    step "layers (.dependency-cruiser.cjs)" npm run --silent depcruise
}
checks_b() {
  step "lint" npx eslint . &&
    step "format" bash -c 'npx prettier --check . > /dev/null && echo "formatting ok"' &&
    step "build (console served to the browser tests, server bundle)" npx tsx scripts/build.ts
}
postgres_pass() {
  TEST_DATABASE_URL=$(cat .tmp/test-database-url) TEST_TIMING_PASS=postgres \
    step "API tests on PostgreSQL" npx vitest run "${REPORT[@]}" --project 'api*' tests/api
}
checks_a >.tmp/checks-a.log 2>&1 &
lane_a=$!
checks_b >.tmp/checks-b.log 2>&1 &
lane_b=$!
postgres_pass >.tmp/postgres-pass.log 2>&1 &
lane_pg=$!
failed=0
wait $lane_a || failed=1
wait $lane_b || failed=1
cat .tmp/checks-a.log .tmp/checks-b.log
wait $lane_pg || failed=1
cat .tmp/postgres-pass.log
[ $failed -eq 0 ] || exit 1

export PREBUILT_CONSOLE_DIR="$(realpath dist)"
export PREBUILT_SERVER_ENTRY="$(realpath server/dist)/server.mjs"
# The time table, and its last line the tests of both passes: `tests: N passed, N failed, N skipped`.
TEST_TIMING_PASS=sqlite step "tests" npx vitest run "${REPORT[@]}"
