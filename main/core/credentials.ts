import type { KeyKind } from '../../preload/contract';
import { keyKindOf } from './api/http';
import { t, type Language } from './i18n';
import type { SecretStore } from './secrets/secret-store';
import { apiBaseUrlSchema, type Settings } from './settings/settings-schema';

/** The service address and key to use, and where each came from. */
export type Credentials = {
  baseUrl: string;
  apiKey: string;
  keyKind: KeyKind;
  source: { baseUrl: 'env' | 'settings'; apiKey: 'env' | 'keychain' };
};

export type CredentialsProblem = 'no_api_url' | 'invalid_api_url' | 'no_api_key';

/** Why there are no usable credentials, in `lang` (the error's message is the English). */
export function credentialsWords(code: CredentialsProblem, kind: KeyKind | undefined, lang: Language): string {
  return t(
    lang,
    code === 'no_api_key' && kind === 'sandbox' ? 'core.credentials.no_sandbox_api_key' : `core.credentials.${code}`,
  );
}

/** Nothing usable to talk to the service with. */
export class CredentialsError extends Error {
  override name = 'CredentialsError';
  constructor(
    readonly code: CredentialsProblem,
    readonly keyKind?: KeyKind,
  ) {
    super(credentialsWords(code, keyKind, 'en'));
  }
}

export type CredentialSources = {
  env?: NodeJS.ProcessEnv;
  /** Read only when the environment does not give both values. */
  settings: () => Settings;
  /** Opened only when the environment gives no key. */
  secrets: () => SecretStore | Promise<SecretStore>;
};

/** What the environment says, when it says it: SCANBRIDGE_API_URL and SCANBRIDGE_API_KEY. */
export function environmentCredentials(env: NodeJS.ProcessEnv): {
  baseUrl: string | undefined;
  apiKey: string | undefined;
} {
  return {
    baseUrl: env['SCANBRIDGE_API_URL']?.trim() || undefined,
    apiKey: env['SCANBRIDGE_API_KEY']?.trim() || undefined,
  };
}

/** The service address in use: the environment's, else the saved one (null when neither). */
export function baseUrlOf(env: NodeJS.ProcessEnv, settings: Pick<Settings, 'api_base_url'>): string | null {
  return environmentCredentials(env).baseUrl ?? settings.api_base_url ?? null;
}

/**
 * Resolves base URL and key (the one resolver: the agent takes its address from `baseUrlOf` and
 * its session key from `environmentCredentials` too): SCANBRIDGE_API_URL / SCANBRIDGE_API_KEY first, else the saved settings
 * and the keychain entry of the active key kind. Throws CredentialsError (or the keychain's
 * KeychainUnavailableError) with a message fit to show.
 */
export async function resolveCredentials(sources: CredentialSources): Promise<Credentials> {
  const env = sources.env ?? process.env;
  const { baseUrl: envUrl, apiKey: envKey } = environmentCredentials(env);
  let settings: Settings | undefined;
  const loadSettings = (): Settings => (settings ??= sources.settings());

  const baseUrl = envUrl ?? baseUrlOf(env, loadSettings()) ?? undefined;
  if (!baseUrl) throw new CredentialsError('no_api_url');
  if (!apiBaseUrlSchema.safeParse(baseUrl).success) throw new CredentialsError('invalid_api_url');

  let apiKey = envKey;
  if (!apiKey) {
    const kind = loadSettings().active_key_kind;
    const store = await sources.secrets();
    apiKey = (await store.get(kind))?.trim() || undefined;
    if (!apiKey) throw new CredentialsError('no_api_key', kind);
  }
  return {
    baseUrl,
    apiKey,
    // The key's own prefix decides, whatever slot it was saved in.
    keyKind: keyKindOf(apiKey),
    source: { baseUrl: envUrl ? 'env' : 'settings', apiKey: envKey ? 'env' : 'keychain' },
  };
}
