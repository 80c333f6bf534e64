#!/usr/bin/env bash
# Installs the Debian packages the browser tests need, when missing: chromium-headless-shell (Chromium's
# headless shell, which Playwright drives at /usr/bin/chromium-headless-shell: the browser Playwright's own
# headless runs use, a fifth less CPU than the full browser here; `npx playwright install` cannot work
# here), chromium (the full browser: bench/firstLoad.ts measures a user's first load with it, and the
# browser tests fall back to it when the shell is missing) and fonts-noto-cjk (Chinese text).
# postgresql (the API tests run a second time against PostgreSQL, see postgres-test-db.sh); golang-go
# and golang-golang-x-mod-dev (tests/api/tlog-interop.test.ts checks the ledger with Go's reference
# golang.org/x/mod/sumdb/note and sumdb/tlog, in GOPATH mode under /usr/share/gocode); nginx (the proxy
# in front of several instances, scripts/nginx-proxy.sh; tests/api/proxy.test.ts runs it unprivileged).
# Needs root (or sudo) and Debian's package archive; does nothing when both are present.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# The headless shell is wanted, not needed: without it the tests drive the full browser (slower).
want=()
[ -x /usr/bin/chromium-headless-shell ] || want+=(chromium-headless-shell)
# (grep without -q reads all its input: with pipefail, an early exit would fail the pipe by SIGPIPE)
fc-list 2>/dev/null | grep -i 'Noto Sans CJK' >/dev/null || need+=(fonts-noto-cjk)
command -v pg_lsclusters >/dev/null && [ -n "$(pg_lsclusters --no-header 2>/dev/null)" ] || need+=(postgresql)
command -v go >/dev/null || need+=(golang-go)
[ -d /usr/share/gocode/src/golang.org/x/mod/sumdb/tlog ] || need+=(golang-golang-x-mod-dev)
[ -x /usr/sbin/nginx ] || need+=(nginx)
[ ${#need[@]} -eq 0 ] && [ ${#want[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "Installing Debian packages: ${need[*]} ${want[*]}"
$SUDO apt-get update -qq || [ ${#need[@]} -eq 0 ]
[ ${#need[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
[ ${#want[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${want[@]}" ||
  echo "warning: could not install ${want[*]}: the browser tests drive /usr/bin/chromium instead (slower)"
