// The unit tests on Node for Windows: `bash test/windows/run.sh --unit [test files…]` (default:
// every test/unit file that uses no `vi`). vitest cannot start under Wine 8, so each file is
// bundled by Linux esbuild with `vitest` pointing at vitest-on-node-test.mjs and run by node.exe's
// own runner (node --test). Files that need what Windows Node cannot have here (DCMTK, POSIX
// modes, tsx) fail and are counted; the summary says how many tests pass and which files fail.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const nodeExe = process.env.SCANBRIDGE_WIN_NODE;
if (!nodeExe || !process.env.WINEPREFIX) throw new Error('run through test/windows/run.sh --unit');

function testFiles(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return testFiles(p);
    return n.endsWith('.test.ts') ? [p] : [];
  });
}

const given = process.argv.slice(2).map((f) => join(root, f));
const files = (given.length > 0 ? given : testFiles(join(root, 'test', 'unit')))
  .filter((f) => given.length > 0 || !/\bvi\.\w/.test(readFileSync(f, 'utf8')))
  .sort();
// Flat names at the depth of a test file's own folder's parent (test/.build/), so the
// repository's paths computed from import.meta.url (test/support/repo-paths.ts) still land.
const out = join(root, 'test', '.build', 'windows-unit');
rmSync(out, { recursive: true, force: true });
const entryPoints = Object.fromEntries(
  files.map((f) => [relative(join(root, 'test'), f).replaceAll('/', '__').replace(/\.ts$/, ''), f]),
);
await build({
  entryPoints,
  outdir: join(root, 'test', '.build'),
  entryNames: 'windows-unit-[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'error',
  external: ['keytar', 'electron', 'esbuild', 'node:test'],
  alias: {
    vitest: join(root, 'test', 'windows', 'vitest-on-node-test.mjs'),
    '@main': join(root, 'main'),
    '@preload': join(root, 'preload'),
    '@renderer': join(root, 'renderer'),
    '@support': join(root, 'test', 'support'),
    '@fixtures': join(root, 'test', 'fixtures'),
  },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
// The lock tests' second process, which they otherwise run through tsx (test/support/lock-holder.ts).
await build({
  entryPoints: { 'windows-unit-lock-holder': join(root, 'test', 'support', 'lock-holder.ts') },
  outdir: join(root, 'test', '.build'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'error',
});
const winPath = (p) => `Z:${p.replaceAll('/', '\\')}`;
const lockHolder = winPath(join(root, 'test', '.build', 'windows-unit-lock-holder.js'));
const bundles = Object.keys(entryPoints).map((n) => winPath(join(root, 'test', '.build', `windows-unit-${n}.js`)));

mkdirSync(out, { recursive: true });
const report = join(out, 'report.txt');
const fd = openSync(report, 'w');
const started = Date.now();
const code = await new Promise((resolve) => {
  const child = spawn('wine64', [nodeExe, '--test', '--test-concurrency=1', '--test-reporter=spec', ...bundles], {
    cwd: root,
    env: {
      ...process.env,
      WINEDEBUG: '-all',
      DISPLAY: '',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TMPDIR: process.env.SCANBRIDGE_WIN_TMP,
      SCANBRIDGE_LOCK_HOLDER_BUNDLE: lockHolder,
    },
    stdio: ['ignore', fd, fd],
  });
  child.once('exit', resolve);
});
closeSync(fd);
const text = readFileSync(report, 'utf8');
const count = (what) => Number(new RegExp(`ℹ ${what} (\\d+)`).exec(text)?.[1] ?? NaN);
// node --test names a file that failed to load or had failing tests in a line of its own.
const failedFiles = [...text.matchAll(/windows-unit-([^\s\\]+)\.js/g)]
  .map((m) => m[1].replaceAll('__', '/'))
  .filter((f) => f !== 'lock-holder');
process.stdout.write(
  `${files.length} unit test files on ${nodeExe.split('/').at(-2)} (${Math.round((Date.now() - started) / 1000)} s): ` +
    `${count('tests')} tests, ${count('pass')} pass, ${count('fail')} fail, ${count('skipped')} skipped\n` +
    (failedFiles.length > 0 ? `files with failures:\n  ${[...new Set(failedFiles)].join('\n  ')}\n` : '') +
    `full report: ${report}\n`,
);
for (const b of readdirSync(join(root, 'test', '.build')).filter(
  (n) => n.startsWith('windows-unit-') && n.endsWith('.js'),
))
  rmSync(join(root, 'test', '.build', b));
process.exitCode = code === 0 ? 0 : 1;
