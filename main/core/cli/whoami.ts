import { type Account } from '../api/account';
import { type ApiClientOptions, createApiClient } from '../api/client';
import { ApiError } from '../api/api-errors';
import type { RateLimitState } from '../api/rate-meter';
import { type Credentials, CredentialsError, resolveCredentials } from '../credentials';
import { KeychainUnavailableError } from '../secrets/keychain-errors';
import type { SecretStore } from '../secrets/secret-store';
import { openSettingsStore } from '../settings/store';
import { type CliCommand, type CliIo, parseCommandLine } from './io';
import { apiErrorText, credentialsText, keychainText } from './cli-messages';
import { terminalLanguage } from '../net/failure-words';
import { openCommandNetwork } from './command-network';

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

function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${i === 0 ? v : Number(v.toFixed(v < 10 ? 2 : 1))} ${units[i]}`;
}

function describeRate(rate: RateLimitState): string {
  if (rate.limit === null || rate.remaining === null) return 'unknown';
  const reset = rate.reset ? ` (window frees up at ${rate.reset.toISOString()})` : '';
  return `${rate.remaining} of ${rate.limit} requests left this hour${reset}`;
}

function humanReport(me: Account, creds: Credentials, sandbox: boolean, rate: RateLimitState): string {
  const rows: [string, string][] = [
    ['Account', me.clinic_name ? `${me.clinic_name} <${me.email}>` : me.email],
    [
      'Key',
      `${sandbox ? 'SANDBOX (test data only, no e-mails are sent)' : 'live'}; from ${creds.source.apiKey === 'env' ? 'SCANBRIDGE_API_KEY' : 'the keychain'}`,
    ],
    ['Service', creds.baseUrl],
    ['Plan', me.plan],
    ['Scopes', me.scopes.join(', ') || '(none)'],
    [
      'Storage',
      `${formatBytes(me.storage.used_bytes)} of ${formatBytes(me.storage.limit_bytes)} used (${me.storage.used_percent}%)`,
    ],
    ['Exams', `${me.exams.count} of ${me.exams.limit}`],
    ['Rate limit', describeRate(rate)],
  ];
  return rows.map(([k, v]) => `${k.padEnd(11)} ${v}`).join('\n') + '\n';
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
        values.json ? jsonReport(me, creds, client.sandbox, rate) : humanReport(me, creds, client.sandbox, rate),
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
