import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from './clock';
import type { Events } from './events';
import type { Faults } from './faults';
import type { RateLimiter } from './rate-limit';
import type { Router, Params } from './router';
import type { Account, ApiKeyRecord } from './state';
import type { Store } from './store';

export type EmulatorConfig = {
  port: number;
  dataDir: string;
  timeScale: number;
  urlTtlSeconds: number;
  /**
   * How long process-zip may unpack before it gives up (§8.2: 300 s of real time, not scaled).
   * Changeable through `POST /__emulator/limits` so a test can reach it without a huge archive.
   */
  processZipTimeoutSeconds?: number;
  insecureWebhooks: boolean;
  /** `--tls`: serve HTTPS with a certificate from the data folder's own CA. */
  tls?: boolean;
};

export type AuthInfo = { key: ApiKeyRecord; account: Account; sandbox: boolean };

/** What an API handler gets: the parsed request and the caller's identity. */
export type ApiCtx = {
  req: IncomingMessage;
  res: ServerResponse;
  params: Params;
  query: URLSearchParams;
  body: unknown;
  auth: AuthInfo;
};

/** A JSON answer; `null` means the handler already wrote the response itself (binary bodies). */
export type Reply = { status?: number; body: unknown; headers?: Record<string, string> } | null;

export type ApiHandler = (ctx: ApiCtx) => Promise<Reply> | Reply;

/** Control and public routes: no API auth, no rate limit; the handler reads the body itself if needed. */
export type RawCtx = { req: IncomingMessage; res: ServerResponse; params: Params; query: URLSearchParams };
export type RawHandler = (ctx: RawCtx) => Promise<Reply> | Reply;

/** Everything a route module needs; route modules export `register(app: App)`. */
export type App = {
  config: EmulatorConfig;
  store: Store;
  clock: Clock;
  events: Events;
  faults: Faults;
  rate: RateLimiter;
  /** `http://127.0.0.1:PORT`, known once the server listens. */
  origin: () => string;
  /** API v1 routes, paths relative to /api/v1; `scope: null` means any valid key. */
  api: Router<ApiHandler>;
  /** Control API routes, paths relative to /__emulator. */
  control: Router<RawHandler>;
  /** Public routes at the server root: presigned storage, viewer and verification pages. */
  public: Router<RawHandler>;
  /** Hooks run at start-up after the state is loaded (e.g. re-arming persisted webhook retries). */
  onStart: (fn: () => void) => void;
};
