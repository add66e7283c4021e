// `scanbridge scan <dir> [--json]`: what the DICOM reader finds in an export folder (CONTRACTS.md §2).
import { escapeForTerminal, ScanFolderError, scanFolder, scanResultToJson, terminalSafeJson } from '../dicom';
import type { ScanResult, Study } from '../dicom';
import type { CliCommand } from './session/io';
import { UsageError } from './session/io';
import { folderProblemText } from './words/error-words';
import { terminalLanguage } from '../net/failure-words';
import { t, type Language } from '../i18n';
import { formatBytes } from '../format-bytes';

/** A usage error in both languages, from the catalogue (`cli.scan.*`, each ending with the usage line). */
function usageError(key?: 'unknownOption' | 'oneFolder' | 'emptyName', option = ''): UsageError {
  const words = (lang: Language): string => {
    const usage = t(lang, 'cli.scan.usage');
    return key ? t(lang, `cli.scan.${key}`, { option, usage }) : usage;
  };
  return new UsageError(words('en'), words('es'));
}

function parseArgs(argv: readonly string[]): { dir: string; json: boolean } {
  let dir: string | undefined;
  let json = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else if (arg.startsWith('-')) throw usageError('unknownOption', arg);
    else if (dir === undefined) dir = arg;
    else throw usageError('oneFolder');
  }
  if (dir === undefined) throw usageError();
  // An empty argument (an unset shell variable, say) must not mean "the current folder".
  if (dir.trim() === '') throw usageError('emptyName');
  return { dir, json };
}

// The summary's words are the catalogue's `cli.scan.*`; the reasons a file was skipped stay codes
// (not_dicom…) in both languages.

function studyLine(s: Study, lang: Language): string {
  // Header values are cleaned when read; escaping again costs nothing and guards the terminal.
  const who = s.patient_name ? escapeForTerminal(s.patient_name) : t(lang, 'cli.scan.noName');
  const parts = [
    who,
    s.suggested_exam_type,
    escapeForTerminal(s.modality),
    s.study_date ?? t(lang, 'cli.scan.noDate'),
    t(lang, 'cli.scan.files', { n: s.files }),
    formatBytes(s.bytes, lang),
  ];
  if (s.expected_files !== undefined) parts.push(t(lang, 'cli.scan.dicomdirLists', { n: s.expected_files }));
  const warn = s.warnings.length > 0 ? `  [${s.warnings.join(', ')}]` : '';
  const series = t(lang, 'cli.scan.seriesIn', { count: s.series.length, root: escapeForTerminal(s.root) });
  return `  ${parts.join('  ·  ')}${warn}\n    ${series}\n`;
}

function summary(r: ScanResult, lang: Language): string {
  const files = r.studies.reduce((n, s) => n + s.files, 0);
  const bytes = r.studies.reduce((n, s) => n + s.bytes, 0);
  const studies = t(lang, 'cli.scan.studies', { count: r.studies.length });
  let out = `${escapeForTerminal(r.root)}: ${studies}, ${t(lang, 'cli.scan.files', { n: files })}, ${formatBytes(bytes, lang)}\n`;
  for (const s of r.studies) out += studyLine(s, lang);
  if (r.dicomdir_records !== undefined)
    out += `${t(lang, 'cli.scan.dicomdir', { records: r.dicomdir_records, instances: r.dicomdir_instances ?? 0 })}\n`;
  const skipped = t(lang, 'cli.scan.skipped');
  if (r.skipped.length > 0) {
    const byReason = new Map<string, number>();
    for (const s of r.skipped) byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + 1);
    out += `${skipped} ${r.skipped.length}: ${[...byReason].map(([k, v]) => `${k} ${v}`).join(', ')}\n`;
  } else {
    out += `${skipped} 0\n`;
  }
  return out;
}

/** Scans a folder and prints its studies, as a summary or (with --json) as one JSON object. */
export const scanCommand: CliCommand = async (io) => {
  const { dir, json } = parseArgs(io.argv);
  let result: ScanResult;
  try {
    // In the calling thread: for one scan per process, starting worker threads costs more time and
    // memory than they save (test/bench/RESULTS.md, "The scanbridge command, whole process").
    result = await scanFolder(dir, { signal: io.signal, workers: false });
  } catch (e) {
    if (e instanceof ScanFolderError) {
      io.stderr(
        `scanbridge scan: ${folderProblemText({ kind: e.kind, path: e.path, code: e.code }, terminalLanguage(io.env))}\n`,
      );
      return 1;
    }
    throw e;
  }
  io.stdout(json ? `${terminalSafeJson(scanResultToJson(result))}\n` : summary(result, terminalLanguage(io.env)));
  return 0;
};
