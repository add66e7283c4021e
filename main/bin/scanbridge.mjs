#!/usr/bin/env -S node --max-semi-space-size=2
// `scanbridge` command. Runs the prebuilt bundle (main/.build/cli, made by `npm ci` through the
// package's `prepare` script, by `npm test` and by `npm run build:cli`) when it is newer than every
// source it was built from; otherwise runs the TypeScript sources through tsx, which costs a few
// tenths of a second at every start but always runs the code as it is in the checkout.
// SCANBRIDGE_FROM_SOURCES=1 forces the sources.
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const bundleDir = new URL('../.build/cli/', import.meta.url);

/** Why the bundle cannot be used, or null when it is up to date. */
function bundleProblem() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('inputs.json', bundleDir), 'utf8'));
  } catch {
    return 'it is not built';
  }
  for (const input of manifest.inputs) {
    let changed;
    try {
      changed = statSync(new URL(input, root)).mtimeMs > manifest.built_ms;
    } catch {
      changed = true;
    }
    if (changed) return `${input} changed since it was built`;
  }
  return null;
}

const problem = process.env.SCANBRIDGE_FROM_SOURCES === '1' ? 'SCANBRIDGE_FROM_SOURCES=1' : bundleProblem();
if (problem === null) {
  await import(new URL('cli.mjs', bundleDir).href);
} else {
  if (process.env.SCANBRIDGE_FROM_SOURCES !== '1') {
    process.stderr.write(
      `scanbridge: running from the TypeScript sources (slower start): the bundle in main/.build/cli is not used because ${problem}. \`npm run build:cli\` rebuilds it.\n`,
    );
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli.ts');
}
