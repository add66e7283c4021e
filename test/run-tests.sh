#!/usr/bin/env bash
# The project's whole test command (README: `npm test`): type-check, lint, unit and integration
# tests (vitest, Node), then end-to-end tests (Playwright, Debian Chromium), all inside a private
# D-Bus session with an unlocked gnome-keyring so keytar talks to a real OS keychain.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${SCANBRIDGE_IN_KEYRING:-}" ] && command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  keyring_home="$(mktemp -d)"
  export SCANBRIDGE_IN_KEYRING=1 SCANBRIDGE_TEST_REAL_HOME="$HOME"
  # A private HOME keeps the test keyring away from the user's; npm's cache stays where it was.
  export npm_config_cache="${npm_config_cache:-$HOME/.npm}"
  HOME="$keyring_home" exec dbus-run-session -- bash -c '
    printf %s "ci-pass" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec bash test/run-tests.sh "$@"' bash "$@"
fi

echo "== typecheck"; npm run -s typecheck
echo "== lint"; npm run -s lint
echo "== vitest"; npx vitest run --config test/vitest.config.ts
if [ -f test/playwright.config.ts ] && compgen -G "test/e2e/*.spec.ts" >/dev/null; then
  echo "== playwright"; npm run -s build; npx playwright test --config test/playwright.config.ts
fi
