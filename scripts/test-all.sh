#!/usr/bin/env bash
# All the checks and all the tests, as CI runs them: system packages for the browser tests, then the
# build, then every vitest project in one run (unit, api, api-isolated, api-serial and browser on SQLite,
# and the three API projects again on PostgreSQL: vitest.config.ts `TEST_POSTGRES_URL`) beside the checks
# in two lanes (lint, format, type-check and the layers' import rules from the start; generated files up
# to date once the native SQLite binding is there, built here when the install left it unbuilt, as
# .ci/run does). Each check uses one core and ends within the first minutes, while vitest's two workers
# fill both cores to the end (a PostgreSQL pass of its own, beside the checks, left a core idle at the
# end of each pass).
# Ends with the time table (scripts/test-timing/summary.mjs): each step's wall time, the tests per pass and
# project, the 15 slowest test files, and a warning for a test file over 3 minutes.
# A failing build or native build stops the run at once; a failing check or test fails it once the tests
# are done (each lane's output is printed then). The time table is printed all the same.
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

step "PostgreSQL for the tests" bash -c 'bash scripts/postgres-test-db.sh > .tmp/test-database-url'
REPORT=(--reporter=default --reporter=./scripts/test-timing/reporter.ts)
# `codegen --check` runs `docs-screens --check` too (scripts/codegen.ts main).
# Lane A needs the native SQLite binding (codegen plans the storage migrations); lane B does not, and
# runs from the start: while the binding compiles (about 80 s on one core) it keeps the other core busy
# with lint, format, typecheck and the layers, where a lane B of lint and format alone left it idle for
# about 40 s.
checks_a() {
  step "codegen check" npx tsx scripts/codegen.ts --check
}
checks_b() {
  step "lint" npx eslint . &&
    step "format" bash -c 'npx prettier --check . > /dev/null && echo "formatting ok"' &&
    step "typecheck" npx tsc --noEmit &&
    step "layers (.dependency-cruiser.cjs)" npm run --silent depcruise
}
checks_b >.tmp/checks-b.log 2>&1 &
lane_b=$!
# The native SQLite binding, when the install left it unbuilt (.ci/run installs with --ignore-scripts so
# that its minute of compiling runs here, beside the checks, instead of alone before them): the API
# tests, codegen and the server need it; the build, lint and format do not.
lane_n=""
if ! node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
  step "native SQLite binding (npm rebuild better-sqlite3)" npm rebuild better-sqlite3 >.tmp/native.log 2>&1 &
  lane_n=$!
fi
# The console served to the browser tests and the server bundle, before the tests start.
step "build (console served to the browser tests, server bundle)" npx tsx scripts/build.ts || {
  kill $lane_b $lane_n 2>/dev/null
  exit 1
}
if [ -n "$lane_n" ]; then
  wait $lane_n || {
    cat .tmp/native.log
    kill $lane_b 2>/dev/null
    exit 1
  }
fi
checks_a >.tmp/checks-a.log 2>&1 &
lane_a=$!

export PREBUILT_CONSOLE_DIR="$(realpath dist)"
export PREBUILT_SERVER_ENTRY="$(realpath server/dist)/server.mjs"
# The time table, and its last line the tests of both passes: `tests: N passed, N failed, N skipped`.
failed=0
TEST_POSTGRES_URL=$(cat .tmp/test-database-url) TEST_TIMING_PASS=sqlite \
  step "tests (SQLite, and the API projects on PostgreSQL)" npx vitest run "${REPORT[@]}" || failed=1
wait $lane_a || failed=1
wait $lane_b || failed=1
cat .tmp/checks-a.log .tmp/checks-b.log
[ $failed -eq 0 ]
