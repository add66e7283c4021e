// The support bundle (CONTRACTS.md §3): what support needs to see why something went wrong on a
// clinic's computer, as a ZIP (`scanbridge support-bundle`, Settings → Help → "Save a support
// bundle") and as the text "Send diagnostics" appends to a ticket. Both come from one
// `BundleContent`: the settings summary (an allow-list, never the settings object), the connection
// check as `doctor --json` gives it, the upload queue's state (ids, states, counts and codes: no
// exam or patient names) and the last days of the log — every string in it redacted the same way
// (redact.ts: the patient names and IDs the app knows of, then patterns for the rest), although
// the log holds no patient data by construction (core/log).
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';
import type { ConnectionCheckView, Diagnostics, UploadJobView } from '../../../preload/contract';
import { CONNECTION_STEPS } from '../../../preload/contract/vocabulary';
import { daysBefore, localDay, lastLogLines, readLogDays } from '../log';
import { redact, type RedactionContext } from './redact';

export type BundleInput = {
  /** The settings summary (agent/handlers/diagnostics.ts). */
  diagnostics: Diagnostics;
  /** The connection check; a command whose network could not be built says why instead. */
  check: ConnectionCheckView | { problem: string };
  jobs: readonly UploadJobView[];
  /** The log folder, and how many days of it (today counts as one). */
  logDir: string;
  days: number;
  /** Patient names and IDs the app holds (inbox, queue): removed from every string. */
  known: readonly string[];
  now?: Date;
};

export type BundleEntry = { name: string; text: string };
export type BundleContent = { entries: BundleEntry[]; logLines: number };

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Every string inside `value` redacted; numbers, booleans and the shape kept. */
export function redactJson(value: unknown, context: RedactionContext): Json {
  if (typeof value === 'string') return redact(value, context);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, context));
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      if (v !== undefined) out[k] = redactJson(v, context);
    return out;
  }
  return null;
}

/** A log line redacted: a JSON line by its values, anything else (a line cut short) as text. */
export function redactLogLine(line: string, context: RedactionContext): string {
  try {
    return JSON.stringify(redactJson(JSON.parse(line) as unknown, context));
  } catch {
    return redact(line, context);
  }
}

/** A job as support sees it: ids, states, counts and codes; never its exam's or patient's name, nor its link. */
export function queueEntry(j: UploadJobView): Record<string, Json> {
  return {
    id: j.id,
    inbox_id: j.inbox_id,
    exam_type: j.exam_type,
    phase: j.phase,
    mode: j.mode,
    exam_id: j.exam_id,
    files_done: j.files_done,
    files_total: j.files_total,
    bytes_sent: j.bytes_sent,
    bytes_total: j.bytes_total,
    error: j.error
      ? { code: j.error.code, net: j.error.net ? { kind: j.error.net.kind, code: j.error.net.code } : null }
      : null,
    retry_at: j.retry_at,
    created_at: j.created_at,
    updated_at: j.updated_at,
  };
}

const json = (v: Json): string => `${JSON.stringify(v, null, 2)}\n`;

/** The bundle's entries, each redacted. */
export function bundleContent(input: BundleInput): BundleContent {
  const context = { known: input.known };
  const now = input.now ?? new Date();
  const days = readLogDays(input.logDir, input.days, localDay(now));
  let logLines = 0;
  const logs = days.map((d) => {
    logLines += d.lines.length;
    return { name: `logs/${d.name}`, text: d.lines.map((l) => `${redactLogLine(l, context)}\n`).join('') };
  });
  const { text: _text, ...summary } = input.diagnostics;
  const readme = [
    'ScanBridge support bundle',
    `made: ${now.toISOString()}`,
    `app: ${input.diagnostics.app_version} (${input.diagnostics.transport}), ${input.diagnostics.os}`,
    `logs: ${logs.length} file(s), ${logLines} line(s), from ${daysBefore(localDay(now), Math.max(1, input.days) - 1)}`,
    '',
    'settings.json          how ScanBridge is set up (no keys, no folder paths)',
    'connection-check.json  the connection check, as `scanbridge doctor --json` gives it',
    'upload-queue.json      the uploads listed: ids, states, counts and error codes',
    'logs/                  the log, one JSON object a line',
    '',
    'Patient names and IDs, keys, e-mail addresses and logins were removed from every file.',
    '',
  ].join('\n');
  return {
    logLines,
    entries: [
      { name: 'README.txt', text: readme },
      { name: 'settings.json', text: json(redactJson(summary, context)) },
      { name: 'connection-check.json', text: json(redactJson(input.check, context)) },
      { name: 'upload-queue.json', text: json(redactJson(input.jobs.map(queueEntry), context)) },
      ...logs,
    ],
  };
}

/** The bundle as a ZIP file's bytes. */
export async function bundleZip(content: BundleContent, now = new Date()): Promise<Buffer> {
  const zip = new ZipFile();
  for (const e of content.entries) zip.addBuffer(Buffer.from(e.text, 'utf8'), e.name, { mtime: now, mode: 0o100600 });
  zip.end();
  return buffer(zip.outputStream as Readable);
}

function checkLines(r: ConnectionCheckView): string[] {
  const detail: Record<(typeof CONNECTION_STEPS)[number], string> = {
    dns: `${r.dns.host ?? '-'} ${r.dns.addresses.join(',')}`,
    tcp: r.tcp.target ?? '-',
    proxy: r.proxy.url ? `${r.proxy.url} (${r.proxy.source ?? '-'})` : 'none',
    tls: r.tls.used
      ? `issuer=${r.tls.issuer ?? '-'} ${r.tls.protocol ?? ''} extra_ca=${r.tls.extra_ca_files.length}`
      : 'not used',
    api_key: `${r.api_key.key_kind ?? '-'} plan=${r.api_key.plan ?? '-'} rate=${r.api_key.rate.remaining ?? '-'}/${r.api_key.rate.limit ?? '-'}`,
    storage: `${r.storage.host ?? '-'} cleaned_up=${String(r.storage.cleaned_up)}`,
    upload_speed: r.upload_speed.bytes_per_second !== null ? `${r.upload_speed.bytes_per_second} B/s` : '-',
  };
  return CONNECTION_STEPS.map((s) => {
    const step = r[s];
    const problem = step.status === 'failed' ? ` ${step.problem ?? ''} ${step.code ?? ''}` : '';
    return `${s}: ${step.status}${problem} · ${detail[s]}${step.ms !== null ? ` · ${step.ms} ms` : ''}`;
  });
}

function queueLines(jobs: readonly UploadJobView[]): string[] {
  if (jobs.length === 0) return ['(empty)'];
  return jobs.map(
    (j) =>
      `${j.id}: ${j.phase} ${j.mode} files ${j.files_done}/${j.files_total} bytes ${j.bytes_sent}/${j.bytes_total}${j.exam_id ? ` exam ${j.exam_id}` : ''}${j.error ? ` error ${j.error.code}` : ''}${j.retry_at ? ` retry_at ${j.retry_at}` : ''}`,
  );
}

/**
 * What "Send diagnostics" appends after the settings summary: the bundle's connection check, queue
 * and last `logLines` lines of its log, as text the operator reads in the window before sending.
 */
export function supportBundleText(
  input: Omit<BundleInput, 'days' | 'check'> & { check: ConnectionCheckView },
  logLines = 50,
): string {
  const context = { known: input.known };
  const lines = lastLogLines(input.logDir, logLines).map((l) => redactLogLine(l, context));
  return [
    `--- Connection check (${input.check.checked_at}) ---`,
    `result: ${input.check.ok ? 'ok' : `failed at ${input.check.failed_step ?? '-'}`}`,
    ...checkLines(input.check).map((l) => redact(l, context)),
    '--- Upload queue ---',
    ...queueLines(input.jobs).map((l) => redact(l, context)),
    `--- Last log lines (${lines.length}, patient data, keys and e-mail addresses removed) ---`,
    ...lines,
  ].join('\n');
}
