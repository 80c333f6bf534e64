#!/usr/bin/env bash
# All the checks and all the tests, as CI runs them: system packages for the browser tests, generated
# files up to date, type-check, lint, the layers' import rules, format, then every vitest project (unit, api, browser).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
echo "== codegen check"; npx tsx scripts/codegen.ts --check
echo "== screens and calls table (docs/screens-and-calls.md)"; npx tsx scripts/docs-screens.ts --check
echo "== typecheck"; npx tsc --noEmit
echo "== lint"; npx eslint .
echo "== layers (.dependency-cruiser.cjs)"; npm run --silent depcruise
echo "== format"; npx prettier --check . > /dev/null; echo "formatting ok"
echo "== build (console served to the browser tests, server bundle)"; npx tsx scripts/build.ts
export PREBUILT_CONSOLE_DIR="$(realpath dist)"
echo "== API tests on PostgreSQL"
TEST_DATABASE_URL=$(bash scripts/postgres-test-db.sh) npx vitest run --project 'api*' tests/api
echo "== tests"
mkdir -p .tmp
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-results.json || status=$?
node -e '
const r = JSON.parse(require("fs").readFileSync(".tmp/vitest-results.json", "utf8"));
const skipped = r.numPendingTests + r.numTodoTests;
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
' || true
exit $status
