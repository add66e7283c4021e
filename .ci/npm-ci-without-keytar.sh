#!/usr/bin/env bash
# Proves that `npm ci` succeeds where keytar (the OS keychain module, an optional dependency)
# cannot be built, and that the app then says clearly that the keychain is missing.
# Works on a copy of the checkout in a temp folder, from npm's local cache (--prefer-offline: the
# network only for what the cache lacks, nothing after any `npm ci` on this machine).
set -euo pipefail
cd "$(dirname "$0")/.."
copy="$(mktemp -d "${TMPDIR:-/tmp}/scanbridge-npm-ci.XXXXXX")"
trap 'rm -rf "$copy"' EXIT

# The checkout as it is (tracked and new files, not what .gitignore leaves out).
git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$copy"

echo "== npm ci with keytar's build made to fail (no prebuilt binary, no working compiler)"
(
  cd "$copy"
  # prebuild-install skips the download; node-gyp then has no C/C++ compiler, as on a machine
  # without build tools or libsecret's headers.
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm_config_build_from_source=true CC=false CXX=false \
    npm ci --prefer-offline --no-audit --no-fund --loglevel=error </dev/null
)
if [ -e "$copy/node_modules/keytar" ]; then echo "FAIL: keytar was installed although its build was made to fail" >&2; exit 1; fi
[ -f "$copy/main/.build/cli/cli.mjs" ] || { echo "FAIL: npm ci did not build the command's bundle (prepare)" >&2; exit 1; }

echo "== the app without keytar"
set +e
out="$(cd "$copy" && env -u SCANBRIDGE_API_KEY SCANBRIDGE_API_URL=http://127.0.0.1:9/v1 \
  SCANBRIDGE_CONFIG_DIR="$copy/.config" SCANBRIDGE_DATA_DIR="$copy/.data" node main/bin/scanbridge.mjs whoami 2>&1)"
code=$?
set -e
echo "$out"
if [ "$code" -eq 0 ] || ! grep -q "keychain support is not installed" <<<"$out" || ! grep -q "SCANBRIDGE_API_KEY" <<<"$out"; then
  echo "FAIL: expected scanbridge whoami to fail saying the keychain support is missing (exit $code)" >&2
  exit 1
fi
echo "OK: npm ci passes without keytar, and the app says the keychain is missing"
