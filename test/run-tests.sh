#!/usr/bin/env bash
# The project's whole test command (README: `npm test`): system packages, the prebuilt bundles,
# formatting, type-check, lint, unit and integration tests (vitest, Node), then end-to-end tests (Playwright,
# Debian Chromium), all inside a private D-Bus session with an unlocked gnome-keyring so keytar
# talks to a real OS keychain, and with a private temp folder that is removed at the end, so the
# suite leaves nothing in the system's.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${SCANBRIDGE_IN_KEYRING:-}" ]; then
  # 1. The Debian packages (.ci/debian-packages, the same list .ci/run installs): installed when this
  #    user can, else the exact apt-get line and a stop.
  bash .ci/system-packages.sh

  # 2. keytar is optional: a first `npm ci` on a machine without libsecret leaves it out. Now that
  #    the packages are there, install it again so the keychain tests use the real module.
  if ! node -e "require('keytar')" 2>/dev/null; then
    echo "== keytar (the OS keychain module) is not installed: reinstalling the npm packages so it is built"
    ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --prefer-offline --no-audit --no-fund </dev/null
  fi

  # 3. A private temp folder for everything the suite starts (Node, Chromium, the keyring).
  system_tmp="${TMPDIR:-/tmp}"
  # Short names: D-Bus puts its socket in here and a Unix socket path holds at most 107 bytes.
  # 0711: tests that run a command as an unprivileged user (permission checks) must pass through it.
  private_tmp="$(mktemp -d "$system_tmp/sbt.XXXXXX")"
  chmod 0711 "$private_tmp"
  trap 'rm -rf "$private_tmp"' EXIT
  mkdir "$private_tmp/home"
  export TMPDIR="$private_tmp"
  export SCANBRIDGE_IN_KEYRING=1 SCANBRIDGE_TEST_REAL_HOME="$HOME"
  # A private HOME keeps the test keyring away from the user's; npm's cache stays where it was.
  export npm_config_cache="${npm_config_cache:-$HOME/.npm}"
  status=0
  if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
    echo "== no dbus-run-session or gnome-keyring-daemon here: the keychain tests will fail" >&2
    bash test/run-tests.sh "$@" || status=$?
    exit "$status"
  fi
  # dbus-daemon's stock session config puts its socket in /tmp and never removes it: listen in the
  # private folder instead.
  bus_config=()
  if [ -f /usr/share/dbus-1/session.conf ]; then
    sed -e "s#<listen>[^<]*</listen>#<listen>unix:dir=$private_tmp</listen>#" \
      -e "s#<includedir>session.d</includedir>#<includedir>/usr/share/dbus-1/session.d</includedir>#" \
      /usr/share/dbus-1/session.conf >"$private_tmp/dbus-session.conf"
    bus_config=(--config-file="$private_tmp/dbus-session.conf")
  fi
  HOME="$private_tmp/home" dbus-run-session "${bus_config[@]}" -- bash -c '
    printf %s "ci-pass" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec bash test/run-tests.sh "$@"' bash "$@" || status=$?
  exit "$status"
fi

echo "== build"; node main/esbuild.config.mjs; npm run -s build
# The formatter, lint and the type-check projects, two at a time (test/static-checks.mjs).
echo "== static checks"; node test/static-checks.mjs
echo "== vitest"; npx vitest run --config test/vitest.config.ts
# The core's integration tests again on the desktop app's own Node (Electron 45 embeds Node 24).
echo "== vitest on Node 24"; bash test/node24/run.sh
# The command line as Windows runs it: Node for Windows under Wine (test/windows/run.sh).
echo "== windows"; bash test/windows/run.sh
if [ -f test/playwright.config.ts ] && compgen -G "test/e2e/*.spec.ts" >/dev/null; then
  echo "== playwright"; npx playwright test --config test/playwright.config.ts
fi
