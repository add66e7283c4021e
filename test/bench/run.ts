// `npm run bench`: runs every benchmark once, in one process, and writes test/bench/RESULTS.md.
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Bench, BenchSection } from './types';

const benches: { file: string; exportName: string }[] = [
  { file: './emulator-startup', exportName: 'benchEmulatorStartup' },
  { file: './scan', exportName: 'benchScan' },
  { file: './upload', exportName: 'benchUpload' },
  { file: './exam-calls', exportName: 'benchExamCalls' },
];

const only = process.argv.slice(2);
const sections: BenchSection[] = [];
let failures = 0;
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
    sections.push({ title: `${b.file} (failed)`, figures: [], details: err instanceof Error ? err.message : String(err) });
  }
}

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 3 : 1));
const lines = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Each figure is one run; baselines are measured in the same run.`,
  '',
];
for (const s of sections) {
  lines.push(`## ${s.title}`, '', '| Measure | Value | Goal | Met |', '|---|---|---|---|');
  for (const f of s.figures) {
    lines.push(`| ${f.name}${f.note ? ` (${f.note})` : ''} | ${fmt(f.value)} ${f.unit} | ${f.goal ?? ''} | ${f.met === undefined ? '' : f.met ? 'yes' : 'no'} |`);
  }
  if (s.details) lines.push('', s.details);
  lines.push('');
}
if (only.length === 0) {
  writeFileSync(fileURLToPath(new URL('./RESULTS.md', import.meta.url)), lines.join('\n'));
  process.stderr.write('bench: wrote test/bench/RESULTS.md\n');
} else {
  process.stdout.write(lines.join('\n'));
}
process.exitCode = failures ? 1 : 0;
