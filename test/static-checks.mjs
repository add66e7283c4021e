// The static checks of `npm test`: the formatter, lint and every type-check project of the
// `typecheck` script, run two at a time so both cores stay busy (each is a mostly single-threaded
// process, so two lanes finish well before the checks run one after another). Every check runs to
// the end even when another fails; their outputs are printed whole, in the order below, once all
// have ended.
// Exits 1 when any check failed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const scripts = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts;

/** The `typecheck` script is a chain of `tsc -p …` commands: each becomes a check of its own. */
const typeChecks = scripts.typecheck.split('&&').map((command) => {
  const project = /-p\s+(\S+)/.exec(command)?.[1] ?? command.trim();
  return { name: `typecheck ${project}`, command: command.trim() };
});

// Longest first (seconds on a quiet 2-core machine: lint 21, the test project 18, the formatter 13,
// renderer 13, main 9, core 8, preload 5), so the two lanes end together.
const expectedSeconds = (name) =>
  ({ lint: 21, 'typecheck test/tsconfig.json': 18, 'format:check': 13, 'typecheck renderer/tsconfig.json': 13 })[
    name
  ] ?? 8;
const checks = [
  { name: 'format:check', command: 'npm run -s format:check' },
  { name: 'lint', command: 'npm run -s lint' },
  ...typeChecks,
].sort((a, b) => expectedSeconds(b.name) - expectedSeconds(a.name));

const lanes = 2;
const results = new Map();

function run(check) {
  return new Promise((resolve) => {
    const started = Date.now();
    // The commands come from package.json (npm runs them through a shell too); node_modules/.bin first.
    const child = spawn(check.command, {
      cwd: root,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${new URL('node_modules/.bin', root).pathname}:${process.env.PATH ?? ''}` },
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
    child.on('close', (code, signal) => {
      results.set(check.name, { code: code ?? 1, signal, output, seconds: (Date.now() - started) / 1000 });
      resolve();
    });
  });
}

const queue = [...checks];
await Promise.all(
  Array.from({ length: lanes }, async () => {
    for (let check = queue.shift(); check; check = queue.shift()) await run(check);
  }),
);

let failed = 0;
for (const { name } of checks) {
  const { code, signal, output, seconds } = results.get(name);
  const outcome = code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
  console.log(`== ${name}: ${outcome} in ${seconds.toFixed(1)} s`);
  if (output.trim()) console.log(output.trimEnd());
  if (code !== 0) failed += 1;
}
if (failed > 0) {
  console.error(`== ${failed} of ${checks.length} static checks failed`);
  process.exit(1);
}
