import type { Account } from '../api/endpoints';
import { type ApiClientOptions, createApiClient } from '../api/client';
import { ApiError, type RateLimitState } from '../api/http';
import { type Credentials, CredentialsError, resolveCredentials } from '../credentials';
import { KeychainUnavailableError } from '../secrets/keychain-errors';
import type { SecretStore } from '../secrets/secret-store';
import { openSettingsStore } from '../settings/store';
import { type CliCommand, type CliIo, parseCommandLine } from './session/io';
import { apiErrorText, credentialsText, keychainText } from './words/cli-messages';
import { terminalLanguage, type WordsLanguage } from '../net/failure-words';
import { openCommandNetwork } from './session/command-network';

export type WhoamiDeps = {
  /** The OS keychain store (built by the caller, so the core never imports the native module). */
  secretStore: () => SecretStore | Promise<SecretStore>;
  /** Extra client options (tests). */
  clientOptions?: Partial<ApiClientOptions>;
};

const HELP = `Usage: scanbridge whoami [--json]

Checks the configured API key with GET /me and shows the account's plan, scopes, storage and
rate-limit state. The key comes from SCANBRIDGE_API_KEY (and the address from SCANBRIDGE_API_URL)
when set, else from the saved settings and the OS keychain.
`;

/** HELP in Spanish, for a Spanish terminal (terminalLanguage). */
const HELP_ES = `Uso: scanbridge whoami [--json]

Comprueba la clave de API configurada con GET /me y muestra el plan de la cuenta, sus permisos,
el almacenamiento y el estado del límite de solicitudes. La clave viene de SCANBRIDGE_API_KEY (y la
dirección de SCANBRIDGE_API_URL) cuando están definidas; si no, de los ajustes guardados y del
llavero del sistema.
`;

function formatBytes(n: number, lang: WordsLanguage): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  const shown = String(i === 0 ? v : Number(v.toFixed(v < 10 ? 2 : 1)));
  return `${lang === 'es' ? shown.replace('.', ',') : shown} ${units[i]}`;
}

/** The human report's words (the labels padded to one column). */
const REPORT = {
  en: {
    account: 'Account',
    key: 'Key',
    sandbox: 'SANDBOX (test data only, no e-mails are sent)',
    live: 'live',
    from: (env: boolean) => `from ${env ? 'SCANBRIDGE_API_KEY' : 'the keychain'}`,
    service: 'Service',
    plan: 'Plan',
    scopes: 'Scopes',
    none: '(none)',
    storage: 'Storage',
    used: (used: string, limit: string, percent: number) => `${used} of ${limit} used (${percent}%)`,
    exams: 'Exams',
    examsOf: (count: number, limit: number) => `${count} of ${limit}`,
    rateLimit: 'Rate limit',
    rateUnknown: 'unknown',
    rate: (left: number, limit: number, reset: string | null) =>
      `${left} of ${limit} requests left this hour${reset ? ` (window frees up at ${reset})` : ''}`,
  },
  es: {
    account: 'Cuenta',
    key: 'Clave',
    sandbox: 'PRUEBA (sandbox: solo datos de prueba, no se envían correos)',
    live: 'real',
    from: (env: boolean) => `desde ${env ? 'SCANBRIDGE_API_KEY' : 'el llavero'}`,
    service: 'Servicio',
    plan: 'Plan',
    scopes: 'Permisos',
    none: '(ninguno)',
    storage: 'Almacenamiento',
    used: (used: string, limit: string, percent: number) => `${used} usados de ${limit} (${percent} %)`,
    exams: 'Exámenes',
    examsOf: (count: number, limit: number) => `${count} de ${limit}`,
    rateLimit: 'Solicitudes',
    rateUnknown: 'desconocido',
    rate: (left: number, limit: number, reset: string | null) =>
      `quedan ${left} de ${limit} esta hora${reset ? ` (el cupo se renueva a las ${reset})` : ''}`,
  },
} as const;

function humanReport(
  me: Account,
  creds: Credentials,
  sandbox: boolean,
  rate: RateLimitState,
  lang: WordsLanguage,
): string {
  const w = REPORT[lang];
  const rateText =
    rate.limit === null || rate.remaining === null
      ? w.rateUnknown
      : w.rate(rate.remaining, rate.limit, rate.reset?.toISOString() ?? null);
  const rows: [string, string][] = [
    [w.account, me.clinic_name ? `${me.clinic_name} <${me.email}>` : me.email],
    [w.key, `${sandbox ? w.sandbox : w.live}; ${w.from(creds.source.apiKey === 'env')}`],
    [w.service, creds.baseUrl],
    [w.plan, me.plan],
    [w.scopes, me.scopes.join(', ') || w.none],
    [
      w.storage,
      w.used(
        formatBytes(me.storage.used_bytes, lang),
        formatBytes(me.storage.limit_bytes, lang),
        me.storage.used_percent,
      ),
    ],
    [w.exams, w.examsOf(me.exams.count, me.exams.limit)],
    [w.rateLimit, rateText],
  ];
  const width = Math.max(11, ...rows.map(([k]) => k.length + 1));
  return rows.map(([k, v]) => `${k.padEnd(width)} ${v}`).join('\n') + '\n';
}

function jsonReport(me: Account, creds: Credentials, sandbox: boolean, rate: RateLimitState): string {
  return `${JSON.stringify({
    ...me,
    sandbox,
    key_kind: creds.keyKind,
    key_source: creds.source.apiKey,
    base_url: creds.baseUrl,
    rate_limit: {
      limit: rate.limit,
      remaining: rate.remaining,
      reset: rate.reset?.toISOString() ?? null,
    },
  })}\n`;
}

function errorCode(err: unknown): string {
  if (err instanceof ApiError || err instanceof CredentialsError || err instanceof KeychainUnavailableError)
    return err.code;
  return 'error';
}

/** `scanbridge whoami [--json]`: verifies the configured key and prints the account's state. */
export function createWhoamiCommand(deps: WhoamiDeps): CliCommand {
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
    const net = await openCommandNetwork(io, 'whoami', deps.secretStore);
    if ('problem' in net) {
      io.stderr(`scanbridge whoami: ${net.problem}\n`);
      return 1;
    }
    try {
      const creds = await resolveCredentials({
        env: io.env,
        settings: () => openSettingsStore({ env: io.env }).get(),
        secrets: deps.secretStore,
      });
      // whoami is interactive: a 429 is reported at once, not waited out.
      const client = createApiClient({
        ...deps.clientOptions,
        baseUrl: creds.baseUrl,
        apiKey: creds.apiKey,
        onRateLimit: 'throw',
      });
      const me = await client.account.me({ signal: io.signal });
      const rate = client.meter.snapshot();
      io.stdout(
        values.json
          ? jsonReport(me, creds, client.sandbox, rate)
          : humanReport(me, creds, client.sandbox, rate, terminalLanguage(io.env)),
      );
      return 0;
    } catch (err) {
      if (!(err instanceof ApiError || err instanceof CredentialsError || err instanceof KeychainUnavailableError))
        throw err;
      const lang = terminalLanguage(io.env);
      // The JSON line keeps its English message (a network failure aside, as before); stderr speaks
      // the terminal's language.
      if (values.json) {
        const message = err instanceof ApiError ? apiErrorText(err, err.netFailure ? lang : 'en') : err.message;
        io.stdout(`${JSON.stringify({ error: { code: errorCode(err), message } })}\n`);
      }
      const said =
        err instanceof ApiError
          ? apiErrorText(err, lang)
          : err instanceof CredentialsError
            ? credentialsText(err, lang)
            : keychainText(err, lang);
      io.stderr(`scanbridge whoami: ${said}\n`);
      return 1;
    }
  };
}
