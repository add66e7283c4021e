// What "Send diagnostics" adds to a support ticket besides the settings summary: the connection
// check, the upload queue's state and the agent's last log lines, redacted. Built as plain text,
// so the operator reads in the window exactly what will be sent.
import type { UploadJobView } from '../../../preload/contract';
import type { CheckReport } from './check-report';
import { CHECK_STEPS } from './check-report';
import { redact, redactLines } from './redact';

export type BundleInput = {
  check: CheckReport;
  jobs: readonly UploadJobView[];
  logLines: readonly string[];
  /** Patient names and IDs the app holds (inbox, queue): removed from every line. */
  known: readonly string[];
};

function checkLines(r: CheckReport): string[] {
  const detail: Record<(typeof CHECK_STEPS)[number], string> = {
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
  return CHECK_STEPS.map((s) => {
    const step = r[s];
    const problem = step.status === 'failed' ? ` ${step.problem ?? ''} ${step.code ?? ''}` : '';
    return `${s}: ${step.status}${problem} · ${detail[s]}${step.ms !== null ? ` · ${step.ms} ms` : ''}`;
  });
}

function queueLines(jobs: readonly UploadJobView[]): string[] {
  if (jobs.length === 0) return ['(empty)'];
  // Ids, states and counts only: no exam names or patient names.
  return jobs.map(
    (j) =>
      `${j.id}: ${j.phase} ${j.mode} files ${j.files_done}/${j.files_total} bytes ${j.bytes_sent}/${j.bytes_total}${j.exam_id ? ` exam ${j.exam_id}` : ''}${j.error ? ` error ${j.error.code}` : ''}${j.retry_at ? ` retry_at ${j.retry_at}` : ''}`,
  );
}

/** The bundle's text (to append after the settings summary). */
export function supportBundleText(input: BundleInput): string {
  const context = { known: input.known };
  return [
    `--- Connection check (${input.check.checked_at}) ---`,
    `result: ${input.check.ok ? 'ok' : `failed at ${input.check.failed_step ?? '-'}`}`,
    ...checkLines(input.check).map((l) => redact(l, context)),
    '--- Upload queue ---',
    ...queueLines(input.jobs).map((l) => redact(l, context)),
    `--- Last log lines (${input.logLines.length}, patient data, keys and e-mail addresses removed) ---`,
    ...redactLines(input.logLines, context),
  ].join('\n');
}
