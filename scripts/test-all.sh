#!/usr/bin/env bash
# All the checks and all the tests, as CI runs them: system packages for the browser tests, generated
# files up to date, type-check, lint, the layers' import rules, format, then every vitest project (unit, api, browser).
# Ends with the time table (scripts/test-timing/summary.mjs): each step's wall time, the tests per project
# and the slowest test files.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
STEPS=.tmp/test-steps.tsv
export TEST_TIMING_FILE="$PWD/.tmp/test-timing.jsonl"
: > "$STEPS"; : > "$TEST_TIMING_FILE"
now() { node -e 'process.stdout.write(String(Date.now()))'; }
# step NAME COMMAND...: runs COMMAND under a heading, appends its wall time to $STEPS; returns its status.
step() {
  local name=$1 start status=0; shift
  echo "== $name"; start=$(now)
  "$@" || status=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$start" "$(now)" "$status" >> "$STEPS"
  return $status
}
summary() { node scripts/test-timing/summary.mjs "$STEPS" "$TEST_TIMING_FILE" || true; }
trap summary EXIT
step "system packages" bash scripts/ensure-system-deps.sh
step "codegen check" npx tsx scripts/codegen.ts --check
step "screens and calls table" npx tsx scripts/docs-screens.ts --check
step "typecheck" npx tsc --noEmit
step "lint" npx eslint .
step "layers (.dependency-cruiser.cjs)" npm run --silent depcruise
step "format" bash -c 'npx prettier --check . > /dev/null && echo "formatting ok"'
step "build" npx tsx scripts/build.ts
export PREBUILT_CONSOLE_DIR="$(realpath dist)"
REPORT=(--reporter=default --reporter=./scripts/test-timing/reporter.ts)
TEST_DATABASE_URL=$(bash scripts/postgres-test-db.sh) TEST_TIMING_PASS=postgres \
  step "API tests on PostgreSQL" npx vitest run "${REPORT[@]}" --project 'api*' tests/api
status=0
TEST_TIMING_PASS=sqlite step "tests" npx vitest run "${REPORT[@]}" --reporter=json \
  --outputFile.json=.tmp/vitest-results.json || status=$?
node -e '
const r = JSON.parse(require("fs").readFileSync(".tmp/vitest-results.json", "utf8"));
const skipped = r.numPendingTests + r.numTodoTests;
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
' || true
exit $status
