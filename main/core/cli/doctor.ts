// `scanbridge doctor [--json]` (CONTRACTS.md §2): the connection check from the command line. Each
// step on its own line, a failure in words (the terminal's language), a non-zero exit when a step
// failed; with --json the last stdout line is the whole report as one object.
import { CLOCK_SKEW_WARN_MS } from '../api/http';
import { clockSkewWords } from '../net/clock-words';
import { baseUrlOf, CredentialsError, resolveCredentials } from '../credentials';
import type { ConnectionCheckView, ConnectionStep } from '../../../preload/contract';
import { CONNECTION_STEPS } from '../../../preload/contract/vocabulary';
import { reportStepWords } from '../diagnose/check-words';
import { runConnectionCheck } from '../diagnose/connection-check';
import { terminalLanguage } from '../net/failure-words';
import { t, type Language } from '../i18n';
import { KeychainUnavailableError } from '../secrets/keychain-errors';
import type { Settings } from '../settings';
import { openSettingsStore } from '../settings/store';
import type { Logger } from '../log';
import { withCommandLog } from './session/command-log';
import { openCommandNetwork } from './session/command-network';
import type { KeychainDeps } from './session/command-session';
import { type CliCommand, type CliIo, parseCommandLine } from './session/io';

/** A figure with the language's decimal mark ("569,2" in Spanish). */
function decimal(n: number, digits: number, lang: Language): string {
  return new Intl.NumberFormat(lang === 'es' ? 'es-CL' : 'en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);
}

function speed(bps: number | null, lang: Language): string {
  if (bps === null) return '';
  return `${decimal(bps / 1_000_000, 2, lang)} MB/s (${decimal((bps * 8) / 1_000_000, 1, lang)} Mbit/s)`;
}

/** A step that does not apply to this service: TLS when the address is plain http. */
function notUsed(report: ConnectionCheckView, s: ConnectionStep): boolean {
  return s === 'tls' && !report.tls.used && report.tls.status !== 'failed' && /^http:/i.test(report.api_url ?? '');
}

/** What a passing step saw, in a few words. */
function seen(report: ConnectionCheckView, s: ConnectionStep, lang: Language): string {
  switch (s) {
    case 'dns':
      return `${report.dns.host ?? ''} → ${report.dns.addresses.join(', ')}`;
    case 'tcp':
      return report.tcp.target ?? '';
    case 'proxy':
      return report.proxy.url ? `${report.proxy.url} (${report.proxy.source ?? ''})` : t(lang, 'cli.doctor.noProxy');
    case 'tls':
      if (!report.tls.used) return t(lang, 'cli.doctor.tlsNotUsed');
      return t(lang, 'cli.doctor.issuedBy', { issuer: report.tls.issuer ?? '?', protocol: report.tls.protocol ?? '' });
    case 'api_key': {
      const r = report.api_key.rate;
      const rate =
        r.limit !== null ? t(lang, 'cli.doctor.rate', { remaining: r.remaining ?? '?', limit: r.limit }) : '';
      return `${report.api_key.key_kind ?? ''}, plan ${report.api_key.plan ?? '?'}${rate}`;
    }
    case 'storage':
      return `${report.storage.host ?? ''}${report.storage.cleaned_up ? '' : t(lang, 'cli.doctor.testExamLeft')}`;
    case 'upload_speed':
      return speed(report.upload_speed.bytes_per_second, lang);
  }
}

function humanReport(report: ConnectionCheckView, lang: Language): string {
  const lines = CONNECTION_STEPS.map((s) => {
    const r = report[s];
    // Each language's labels in one column: as wide as its longest label and a space.
    const label = t(lang, `cli.doctor.label.${s}`).padEnd(lang === 'es' ? 20 : 13);
    if (notUsed(report, s)) return `  -     ${label} ${t(lang, 'cli.doctor.notUsed')}`;
    if (r.status === 'ok') return `  ok    ${label} ${seen(report, s, lang)}`;
    if (r.status === 'skipped') return `  -     ${label} ${t(lang, 'cli.doctor.notChecked')}`;
    return `  FAIL  ${label} ${reportStepWords(report, s, lang)}`;
  });
  const verdict = report.ok
    ? t(lang, 'cli.doctor.works')
    : t(lang, 'cli.doctor.failedStep', { step: t(lang, `cli.doctor.label.${report.failed_step ?? 'dns'}`) });
  const skew = report.clock_skew_ms ?? 0;
  const clock = Math.abs(skew) >= CLOCK_SKEW_WARN_MS ? `${clockSkewWords(skew, lang)}\n` : '';
  return `${lines.join('\n')}\n${verdict}\n${clock}`;
}

/** `scanbridge doctor [--json]`. */
export function createDoctorCommand(deps: KeychainDeps): CliCommand {
  return async (io: CliIo) => {
    const { values } = parseCommandLine(
      io.argv,
      { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      false,
    );
    if (values.help) {
      io.stdout(t(terminalLanguage(io.env), 'cli.help.doctor'));
      return 0;
    }
    return withCommandLog(io, 'doctor', (log) => doctor(io, deps, values.json === true, log));
  };
}

/**
 * The connection check as a command runs it (doctor, support-bundle): on the Settings or
 * environment network and the configured key; `problem` when the network cannot be built (a CA
 * file that cannot be read).
 */
export async function commandConnectionCheck(
  io: CliIo,
  command: string,
  deps: KeychainDeps,
  settings: Settings,
): Promise<{ report: ConnectionCheckView; apiKey: string | null } | { problem: string }> {
  const net = await openCommandNetwork(io, command, deps.secretStore, settings);
  if ('problem' in net) return { problem: net.problem };
  let apiKey: string | null = null;
  try {
    apiKey = (await resolveCredentials({ env: io.env, settings: () => settings, secrets: deps.secretStore })).apiKey;
  } catch (e) {
    if (!(e instanceof CredentialsError || e instanceof KeychainUnavailableError)) throw e;
  }
  const report = await runConnectionCheck({ baseUrl: baseUrlOf(io.env, settings), apiKey, network: net.network });
  return { report, apiKey };
}

/** The check itself, with the command's log open: one line per step (its status, code and time). */
async function doctor(io: CliIo, deps: KeychainDeps, json: boolean, log: Logger): Promise<number> {
  const lang = terminalLanguage(io.env);
  const settings = openSettingsStore({ env: io.env }).get();
  const checked = await commandConnectionCheck(io, 'doctor', deps, settings);
  if ('problem' in checked) {
    io.stderr(`scanbridge doctor: ${checked.problem}\n`);
    return 1;
  }
  const { report } = checked;
  for (const step of CONNECTION_STEPS) {
    const r = report[step];
    log[r.status === 'failed' ? 'warn' : 'info']('connection check step', {
      step,
      phase: r.status,
      code: r.code ?? undefined,
      ms: r.ms ?? undefined,
    });
  }
  const text = humanReport(report, lang);
  if (json) {
    io.stderr(text);
    io.stdout(`${JSON.stringify(report)}\n`);
  } else io.stdout(text);
  return report.ok ? 0 : 1;
}
