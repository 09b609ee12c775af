#!/usr/bin/env bash
# The one test command (README, .ci/run): type-check, build the renderer, then run every test
# inside a private D-Bus session with an unlocked gnome-keyring so keychain tests use a real one.
# Arguments go to vitest: `npm test -- --project e2e` runs one lane (vitest.config.ts) the same way.
set -euo pipefail
cd "$(dirname "$0")/.."

# The keychain tests must run under npm test, never skip (test/integration/secrets.test.ts).
export TNC_REQUIRE_KEYCHAIN=1

npm run --silent typecheck
npx vite build --logLevel warn

run_tests() {
  mkdir -p test-output && rm -f test-output/vitest.json
  npx vitest run --reporter=default --reporter=json --outputFile.json=test-output/vitest.json "$@"
}

# One plain closing line, "N passed, N failed, N skipped", whatever the reporter printed above.
summarize() {
  node -e 'const r = require("./test-output/vitest.json");
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);' 2>/dev/null || true
}

if command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  export -f run_tests
  # A fresh keyring per run (its own data dir), so a keyring left by an earlier run with another
  # password cannot stay locked. The unlock password must not be empty, or the daemon leaves the
  # collection locked.
  keyring_home=$(mktemp -d)
  trap 'rm -rf "$keyring_home"' EXIT
  export KEYRING_HOME="$keyring_home"
  status=0
  dbus-run-session -- bash -c 'printf toolnexus | XDG_DATA_HOME="$KEYRING_HOME" gnome-keyring-daemon --unlock --components=secrets >/dev/null; run_tests "$@"' _ "$@" || status=$?
  summarize
  exit $status
else
  echo "scripts/test.sh: dbus-run-session or gnome-keyring-daemon missing (apt-get install gnome-keyring dbus-x11); keychain tests will fail." >&2
  status=0
  run_tests "$@" || status=$?
  summarize
  exit $status
fi
