import { accountApi } from './endpoints/account';
import { activityApi, notificationsApi } from './endpoints/activity';
import { consentApi } from './endpoints/consent';
import { examsApi } from './endpoints/exams';
import { createTransport, DEFAULT_TIMEOUTS, type RateLimitMode, type Timeouts, type TransportEvent } from './http/http';
import { implantsApi } from './endpoints/implants';
import { currentNetwork, type Network } from '../net/network';
import { RateMeter } from './http/rate-meter';
import { referrersApi } from './endpoints/referrers';
import { ServiceClock } from './http/service-clock';
import { reportsApi } from './endpoints/reports';
import { abortableSleep, DEFAULT_RETRY_POLICY, type RetryPolicy } from './http/retry';
import { isSandboxKey } from './http/sandbox';
import type { KeyKind } from '../../../preload/contract';
import { supportApi } from './endpoints/support';
import { templatesApi } from './endpoints/templates';
import { APP_VERSION, userAgent } from './http/user-agent';
import { webhooksApi } from './endpoints/webhooks';

export type ApiClientOptions = {
  /** e.g. `https://…/api/v1` */
  baseUrl: string;
  apiKey: string;
  /** Goes into the User-Agent; defaults to package.json's version. */
  appVersion?: string;
  /** What a 429 does by default: wait for Retry-After ('wait') or fail at once ('throw', the default). */
  onRateLimit?: RateLimitMode;
  /** How many 429s one call may wait out in 'wait' mode (default 3). */
  maxRateLimitWaits?: number;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Share one meter between clients of the same key. */
  meter?: RateMeter;
  /** Injected for tests: the sleep used for backoff and rate-limit waits, and the jitter source. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Attempts, retries and rate-limit waits, for the log. */
  onEvent?: (event: TransportEvent) => void;
  /** How to reach the service (proxy, trusted CAs); the process's network by default. */
  network?: Network;
};

/** Thrown when the client is configured with an unusable URL or key. */
export class ClientConfigError extends Error {
  override name = 'ClientConfigError';
}

function checkConfig(options: ApiClientOptions): void {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new ClientConfigError('The API address is not a valid URL. Check it in Settings.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ClientConfigError('The API address must start with https://.');
  // A key with spaces or control characters would break (or inject into) the Authorization header.
  if (!/^[\x21-\x7e]+$/.test(options.apiKey))
    throw new ClientConfigError('The API key is empty or contains invalid characters. Check it in Settings.');
}

/** Builds the API v1 client: one typed function per endpoint, grouped by resource. */
export function createApiClient(options: ApiClientOptions) {
  checkConfig(options);
  const meter = options.meter ?? new RateMeter();
  const serviceClock = new ServiceClock();
  const transport = createTransport({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    userAgent: userAgent(options.appVersion ?? APP_VERSION),
    meter,
    clock: serviceClock,
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    onRateLimit: options.onRateLimit ?? 'throw',
    maxRateLimitWaits: options.maxRateLimitWaits ?? 3,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    onEvent: options.onEvent,
    network: options.network ?? currentNetwork(),
  });
  const sandbox = isSandboxKey(options.apiKey);
  return {
    baseUrl: options.baseUrl,
    /** True for a `cbct_test_` key: every screen shows it. */
    sandbox,
    keyKind: (sandbox ? 'sandbox' : 'live') satisfies KeyKind as KeyKind,
    /** Rate-limit state, fed by every answer. */
    meter,
    /** The service's clock (its Date headers) against this computer's. */
    serviceClock,
    account: accountApi(transport),
    exams: examsApi(transport),
    consent: consentApi(transport),
    reports: reportsApi(transport),
    webhooks: webhooksApi(transport),
    referrers: referrersApi(transport),
    templates: templatesApi(transport),
    implants: implantsApi(transport),
    support: supportApi(transport),
    activity: activityApi(transport),
    notifications: notificationsApi(transport),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
