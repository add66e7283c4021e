// `npm run bench`: runs every benchmark once, in one process, and writes test/bench/RESULTS.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildEmulatorBundle } from '../support/emulator/emulator-bundle';
import type { Bench, BenchSection } from './types';

const benches: { file: string; exportName: string }[] = [
  { file: './emulator-startup', exportName: 'benchEmulatorStartup' },
  { file: './scan', exportName: 'benchScan' },
  { file: './cli', exportName: 'benchCli' },
  { file: './upload', exportName: 'benchUpload' },
  { file: './poll-budget', exportName: 'benchPollBudget' },
  { file: './window-long-tasks', exportName: 'benchWindowLongTasks' },
  { file: './exam-calls', exportName: 'benchExamCalls' },
  { file: './receive', exportName: 'benchReceive' },
  { file: './uplink', exportName: 'benchUplink' },
];

// `npm run bench -- cli scan --update`: only the benches named, and their sections replaced in
// RESULTS.md (matched by title up to its first "(" or ":"), the others kept as they were.
const update = process.argv.includes('--update');
const only = process.argv.slice(2).filter((a) => a !== '--update');
const sections: BenchSection[] = [];
let failures = 0;
// The benches start the emulator as the tests do, from its bundle: built now, never left stale.
await buildEmulatorBundle();
for (const b of benches) {
  if (only.length && !only.some((o) => b.file.includes(o))) continue;
  const mod = (await import(b.file)) as Record<string, Bench | undefined>;
  const run = mod[b.exportName];
  if (!run) throw new Error(`${b.file} does not export ${b.exportName}`);
  process.stderr.write(`bench: ${b.file} …\n`);
  try {
    const section = await run();
    sections.push(section);
    process.stderr.write(`${JSON.stringify(section)}\n`);
  } catch (err) {
    failures++;
    sections.push({
      title: `${b.file} (failed)`,
      figures: [],
      details: err instanceof Error ? err.message : String(err),
    });
  }
}

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 3 : 1));
const lines = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join('/')} (1/5/15 min) at the end. Each figure is one run; baselines are measured in the same run.`,
  '',
];
for (const s of sections) {
  lines.push(`## ${s.title}`, '', '| Measure | Value | Goal | Met |', '|---|---|---|---|');
  for (const f of s.figures) {
    lines.push(
      `| ${f.name}${f.note ? ` (${f.note})` : ''} | ${fmt(f.value)} ${f.unit} | ${f.goal ?? ''} | ${f.met === undefined ? '' : f.met ? 'yes' : 'no'} |`,
    );
  }
  if (s.details) lines.push('', s.details);
  lines.push('');
}
const resultsFile = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
if (only.length === 0) {
  writeFileSync(resultsFile, lines.join('\n'));
  process.stderr.write('bench: wrote test/bench/RESULTS.md\n');
} else if (update) {
  writeFileSync(resultsFile, replaceSections(readFileSync(resultsFile, 'utf8'), lines.join('\n')));
  process.stderr.write('bench: updated those sections of test/bench/RESULTS.md\n');
} else {
  process.stdout.write(lines.join('\n'));
}

/** `old` with each `## ` section of `fresh` put in place of the one with the same title stem (or added). */
function replaceSections(old: string, fresh: string): string {
  const split = (text: string): { head: string; sections: string[] } => {
    const parts = text.split(/^(?=## )/m);
    return { head: parts[0] ?? '', sections: parts.slice(1) };
  };
  const stem = (section: string): string => (section.split('\n')[0] ?? '').replace(/[(:].*$/, '').trim();
  const before = split(old);
  const after = split(fresh);
  const sections = [...before.sections];
  for (const s of after.sections) {
    const at = sections.findIndex((o) => stem(o) === stem(s));
    const block = `${s.trimEnd()}\n\n`;
    if (at >= 0) sections[at] = block;
    else sections.push(block);
  }
  const written = after.head.split('\n').find((l) => l.startsWith('Written by')) ?? '';
  const note = written.replace(
    /^Written by `npm run bench`/,
    `Sections updated by \`npm run bench -- ${only.join(' ')} --update\` (${after.sections.map(stem).join('; ')})`,
  );
  // Earlier partial updates stay listed (each says when its sections were measured) unless this
  // update measured all of their sections again.
  const fresher = new Set(after.sections.map(stem));
  const covered = (line: string): boolean => {
    const named = /^Sections updated by [^(]*\(([^)]*)\)/.exec(line)?.[1];
    return named !== undefined && named.split('; ').every((s) => fresher.has(s));
  };
  const head = before.head
    .split('\n')
    .filter((l) => !(l.startsWith('Sections updated by') && covered(l)))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
  return [head, note ? `\n\n${note}` : '', '\n\n', sections.join('').trimEnd(), '\n'].join('');
}
process.exitCode = failures ? 1 : 0;
