// `scanbridge doctor [--json]` (CONTRACTS.md §2): the connection check from the command line. Each
// step on its own line, a failure in words (the terminal's language), a non-zero exit when a step
// failed; with --json the last stdout line is the whole report as one object.
import { CLOCK_SKEW_WARN_MS } from '../api/http';
import { clockSkewWords } from '../net/clock-words';
import { baseUrlOf, CredentialsError, resolveCredentials } from '../credentials';
import type { CheckReport, CheckStep } from '../diagnose/check-report';
import { CHECK_STEPS } from '../diagnose/check-report';
import { reportStepWords } from '../diagnose/check-words';
import { runConnectionCheck } from '../diagnose/connection-check';
import { terminalLanguage, type WordsLanguage } from '../net/failure-words';
import { KeychainUnavailableError } from '../secrets/keychain-errors';
import type { Settings } from '../settings';
import { openSettingsStore } from '../settings/store';
import type { Logger } from '../log';
import { withCommandLog } from './session/command-log';
import { openCommandNetwork } from './session/command-network';
import type { KeychainDeps } from './session/command-session';
import { type CliCommand, type CliIo, parseCommandLine } from './session/io';

const HELP = `Usage: scanbridge doctor [--json]

Checks the connection to the service step by step: DNS, TCP, the proxy in use, TLS (and who issued
the certificate), the API key (plan and rate limit), a round trip through presigned storage (a test
exam with no patient data, deleted at once) and the upload speed. Exits non-zero when a step fails.
Uses the proxy saved in Settings (its login from the keychain) when there is one, else HTTPS_PROXY /
HTTP_PROXY; honours NO_PROXY, SCANBRIDGE_CA_FILE and NODE_EXTRA_CA_CERTS.
`;

/** HELP in Spanish, for a Spanish terminal (terminalLanguage). */
const HELP_ES = `Uso: scanbridge doctor [--json]

Revisa paso a paso la conexión con el servicio: DNS, TCP, el proxy en uso, TLS (y quién emitió
el certificado), la clave de API (plan y límite de solicitudes), un viaje de ida y vuelta por el
almacenamiento prefirmado (un examen de prueba sin datos de pacientes, que se borra enseguida) y la
velocidad de subida. Termina con un código distinto de cero cuando falla un paso.
Usa el proxy guardado en Ajustes (con su usuario desde el llavero) cuando hay uno; si no,
HTTPS_PROXY / HTTP_PROXY; respeta NO_PROXY, SCANBRIDGE_CA_FILE y NODE_EXTRA_CA_CERTS.
`;

const LABELS: Record<WordsLanguage, Record<CheckStep, string>> = {
  en: {
    dns: 'DNS',
    tcp: 'TCP',
    proxy: 'Proxy',
    tls: 'TLS',
    api_key: 'API key',
    storage: 'Storage',
    upload_speed: 'Upload speed',
  },
  es: {
    dns: 'DNS',
    tcp: 'TCP',
    proxy: 'Proxy',
    tls: 'TLS',
    api_key: 'Clave de API',
    storage: 'Almacenamiento',
    upload_speed: 'Velocidad de subida',
  },
};

/** A figure with the language's decimal mark ("569,2" in Spanish). */
function decimal(n: number, digits: number, lang: WordsLanguage): string {
  return new Intl.NumberFormat(lang === 'es' ? 'es-CL' : 'en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);
}

function speed(bps: number | null, lang: WordsLanguage): string {
  if (bps === null) return '';
  return `${decimal(bps / 1_000_000, 2, lang)} MB/s (${decimal((bps * 8) / 1_000_000, 1, lang)} Mbit/s)`;
}

/** A step that does not apply to this service: TLS when the address is plain http. */
function notUsed(report: CheckReport, s: CheckStep): boolean {
  return s === 'tls' && !report.tls.used && report.tls.status !== 'failed' && /^http:/i.test(report.api_url ?? '');
}

/** What a passing step saw, in a few words. */
function seen(report: CheckReport, s: CheckStep, lang: WordsLanguage): string {
  const none = lang === 'es' ? 'ninguno (conexión directa)' : 'none (direct connection)';
  switch (s) {
    case 'dns':
      return `${report.dns.host ?? ''} → ${report.dns.addresses.join(', ')}`;
    case 'tcp':
      return report.tcp.target ?? '';
    case 'proxy':
      return report.proxy.url ? `${report.proxy.url} (${report.proxy.source ?? ''})` : none;
    case 'tls':
      if (!report.tls.used) return lang === 'es' ? 'no se usa (http://)' : 'not used (http://)';
      return `${lang === 'es' ? 'emitido por' : 'issued by'} ${report.tls.issuer ?? '?'}, ${report.tls.protocol ?? ''}`;
    case 'api_key': {
      const r = report.api_key.rate;
      const rate =
        r.limit !== null ? `, ${r.remaining ?? '?'}/${r.limit} ${lang === 'es' ? 'llamadas/hora' : 'calls/hour'}` : '';
      return `${report.api_key.key_kind ?? ''}, plan ${report.api_key.plan ?? '?'}${rate}`;
    }
    case 'storage':
      return `${report.storage.host ?? ''}${report.storage.cleaned_up ? '' : lang === 'es' ? ' (examen de prueba sin borrar)' : ' (test exam not deleted)'}`;
    case 'upload_speed':
      return speed(report.upload_speed.bytes_per_second, lang);
  }
}

function humanReport(report: CheckReport, lang: WordsLanguage): string {
  const lines = CHECK_STEPS.map((s) => {
    const r = report[s];
    const label = LABELS[lang][s].padEnd(lang === 'es' ? 20 : 13);
    if (notUsed(report, s))
      return `  -     ${label} ${lang === 'es' ? 'no se usa (http simple)' : 'not used (plain http)'}`;
    if (r.status === 'ok') return `  ok    ${label} ${seen(report, s, lang)}`;
    if (r.status === 'skipped') return `  -     ${label} ${lang === 'es' ? 'no se probó' : 'not checked'}`;
    return `  FAIL  ${label} ${reportStepWords(report, s, lang)}`;
  });
  const verdict = report.ok
    ? lang === 'es'
      ? 'La conexión funciona.'
      : 'The connection works.'
    : lang === 'es'
      ? `Falló el paso «${LABELS.es[report.failed_step ?? 'dns']}».`
      : `The step "${LABELS.en[report.failed_step ?? 'dns']}" failed.`;
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
      io.stdout(terminalLanguage(io.env) === 'es' ? HELP_ES : HELP);
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
): Promise<{ report: CheckReport; apiKey: string | null } | { problem: string }> {
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
  for (const step of CHECK_STEPS) {
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
