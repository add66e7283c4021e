// The connection to the service for the active key: one API client, rebuilt when the key, the
// address or the network changes, and its rate meter forwarded to the window (`account:rate`).
import { createHash } from 'node:crypto';
import type { AccountView, RateState, ServiceReachView } from '../../../../preload/contract';
import type { Account, ApiClient, TransportEvent } from '../../api';
import { ClientConfigError, createApiClient, RateMeter } from '../../api';
import type { RateLimitState } from '../../api/http';
import { networkGeneration } from '../../net/network';
import { ContractFailure } from '../host/contract-host';
import { FreshExamReads, withFreshExamReads } from './fresh-exam-reads';
import { ServiceReach } from './service-reach';

/** The meter's state as the window sees it. */
export function rateView(s: RateLimitState): RateState {
  return {
    limit: s.limit,
    remaining: s.remaining,
    reset_at: s.reset ? s.reset.toISOString() : null,
    updated_at: s.lastUpdated ? s.lastUpdated.toISOString() : null,
  };
}

/** GET /me as the window sees it. */
export function accountView(a: Account, client: ApiClient): AccountView {
  return {
    user_id: a.user_id,
    email: a.email,
    plan: a.plan,
    scopes: a.scopes,
    storage: {
      used_bytes: a.storage.used_bytes,
      limit_bytes: a.storage.limit_bytes,
      used_percent: a.storage.used_percent,
    },
    exams: { count: a.exams.count, limit: a.exams.limit },
    sandbox: client.sandbox,
    rate: rateView(client.meter.snapshot()),
    clock_skew_ms: skewOf(client.serviceClock.offsetMs()),
  };
}

/** The local clock less the service's, from the service's clock offset (null when not known). */
const skewOf = (offset: number | null): number | null => (offset === null ? null : -offset);

const hostOf = (url: string | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

const keyId = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 16);

function build(
  baseUrl: string,
  apiKey: string,
  appVersion: string,
  meter?: RateMeter,
  onEvent?: (e: TransportEvent) => void,
): ApiClient {
  try {
    return createApiClient({
      baseUrl,
      apiKey,
      appVersion,
      ...(meter ? { meter } : {}),
      ...(onEvent ? { onEvent } : {}),
    });
  } catch (e) {
    if (e instanceof ClientConfigError)
      throw new ContractFailure(/address|URL/i.test(e.message) ? 'invalid_api_url' : 'invalid_key', e.message);
    throw e;
  }
}

/** Holds the client of the active key; `require()` fails with `no_api_url` or `no_key` when there is none. */
export class ServiceConnection {
  private current: { client: ApiClient; signature: string; unsubscribe: () => void } | null = null;
  /** One meter per key (the service counts per key), kept when switching back and forth. */
  private readonly meters = new Map<string, RateMeter>();
  private baseUrl: string | null = null;
  private hasKey = false;
  /** Whether the service can be reached, from the active client's calls. */
  readonly reach: ServiceReach;

  constructor(
    private readonly appVersion: string,
    private readonly onRate: (rate: RateState) => void,
    onReach: (view: ServiceReachView) => void = () => undefined,
  ) {
    this.reach = new ServiceReach(onReach);
  }

  /** Points the connection at `baseUrl` with `apiKey` (either may be null: no client then). */
  configure(baseUrl: string | null, apiKey: string | null): void {
    this.baseUrl = baseUrl;
    this.hasKey = apiKey !== null;
    // A new network (a proxy saved in Settings) is a new client: the old one's pools go the old way.
    const signature = baseUrl && apiKey ? `${baseUrl}\n${keyId(apiKey)}\n${networkGeneration()}` : '';
    if (this.current?.signature === signature) return;
    this.current?.unsubscribe();
    this.current = null;
    this.reach.reset(hostOf(baseUrl));
    if (!baseUrl || !apiKey) return;
    const meterKey = keyId(apiKey);
    let meter = this.meters.get(meterKey);
    if (!meter) {
      meter = new RateMeter();
      this.meters.set(meterKey, meter);
    }
    let client: ApiClient;
    try {
      const reach = this.reach;
      let reads: FreshExamReads | null = null;
      const built = build(baseUrl, apiKey, this.appVersion, meter, (e) => {
        reach.observe(e);
        reads?.observe(e);
      });
      reads = new FreshExamReads(
        (id, o) => built.exams.get(id, o),
        (o) => built.account.me(o),
      );
      client = withFreshExamReads(built, reads);
    } catch {
      // A bad address or key: `require()` reports it when something needs the service.
      return;
    }
    const unsubscribe = meter.subscribe((s) => this.onRate(rateView(s)));
    this.current = { client, signature, unsubscribe };
    this.onRate(rateView(meter.snapshot()));
  }

  /** The active client, if any. */
  get client(): ApiClient | null {
    return this.current?.client ?? null;
  }

  /** The active client, or a ContractFailure saying what is missing. */
  require(): ApiClient {
    if (this.current) return this.current.client;
    if (!this.baseUrl)
      throw new ContractFailure(
        'no_api_url',
        'No service address is configured (settings file or SCANBRIDGE_API_URL).',
      );
    if (!this.hasKey) throw new ContractFailure('no_key', 'No API key is in use. Paste a key to start.');
    throw new ContractFailure('invalid_api_url', 'The service address or the key cannot be used.');
  }

  /** Calls GET /me with a key that is not (yet) in use. */
  async verify(apiKey: string): Promise<AccountView> {
    if (!this.baseUrl)
      throw new ContractFailure(
        'no_api_url',
        'No service address is configured (settings file or SCANBRIDGE_API_URL).',
      );
    const client = build(this.baseUrl, apiKey, this.appVersion, this.meters.get(keyId(apiKey)));
    const account = await client.account.me();
    return accountView(account, client);
  }

  close(): void {
    this.current?.unsubscribe();
    this.current = null;
  }
}
