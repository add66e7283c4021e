import { type Account } from '../api/endpoints';
import { type ApiClientOptions, createApiClient } from '../api/client';
import { ApiError } from '../api/http';
import type { RateLimitState } from '../api/http';
import { type Credentials, CredentialsError, resolveCredentials } from '../credentials';
import { KeychainUnavailableError } from '../secrets/keychain-errors';
import type { SecretStore } from '../secrets/secret-store';
import { openSettingsStore } from '../settings/store';
import { type CliCommand, type CliIo, parseCommandLine } from './session/io';
import { apiErrorText, credentialsText, keychainText } from './words/error-words';
import { terminalLanguage } from '../net/failure-words';
import { t, type Language } from '../i18n';
import { openCommandNetwork } from './session/command-network';
import { formatBytes } from '../format-bytes';

export type WhoamiDeps = {
  /** The OS keychain store (built by the caller, so the core never imports the native module). */
  secretStore: () => SecretStore | Promise<SecretStore>;
  /** Extra client options (tests). */
  clientOptions?: Partial<ApiClientOptions>;
};

/** The human report: one row a fact, the labels padded to one column (`cli.whoami.*`). */
function humanReport(me: Account, creds: Credentials, sandbox: boolean, rate: RateLimitState, lang: Language): string {
  const reset = rate.reset?.toISOString() ?? null;
  const rateText =
    rate.limit === null || rate.remaining === null
      ? t(lang, 'cli.whoami.rateUnknown')
      : t(lang, reset ? 'cli.whoami.rateReset' : 'cli.whoami.rate', {
          left: rate.remaining,
          limit: rate.limit,
          reset: reset ?? '',
        });
  const key = `${t(lang, sandbox ? 'cli.whoami.sandbox' : 'cli.whoami.live')}; ${t(
    lang,
    creds.source.apiKey === 'env' ? 'cli.whoami.fromEnv' : 'cli.whoami.fromKeychain',
  )}`;
  const rows: [string, string][] = [
    [t(lang, 'cli.whoami.account'), me.clinic_name ? `${me.clinic_name} <${me.email}>` : me.email],
    [t(lang, 'cli.whoami.key'), key],
    [t(lang, 'cli.whoami.service'), creds.baseUrl],
    [t(lang, 'cli.whoami.plan'), me.plan],
    [t(lang, 'cli.whoami.scopes'), me.scopes.join(', ') || t(lang, 'cli.whoami.none')],
    [
      t(lang, 'cli.whoami.storage'),
      t(lang, 'cli.whoami.used', {
        used: formatBytes(me.storage.used_bytes, lang),
        limit: formatBytes(me.storage.limit_bytes, lang),
        percent: me.storage.used_percent,
      }),
    ],
    [t(lang, 'cli.whoami.exams'), t(lang, 'cli.whoami.examsOf', { n: me.exams.count, limit: me.exams.limit })],
    [t(lang, 'cli.whoami.rateLimit'), rateText],
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
      io.stdout(t(terminalLanguage(io.env), 'cli.help.whoami'));
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
