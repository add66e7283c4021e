// api/http: how the client talks to the service. The HTTP transport (http.ts: timeouts, rate
// limits, one error shape), retries and their back-off (retry.ts), paging, the rate meter, the
// service's clock, the user agent, sandbox keys, ApiError, and the schema helpers the endpoints share.
export { ApiError, apiFailure, isApiError } from './api-errors';
export type { ApiErrorCode } from './api-errors';
export type { RateLimitState, RateMeter } from './rate-meter';
export { abortReason, backoffDelayMs, sleep, whenAborted } from './retry';
export type { BackoffPolicy } from './retry';
export { keyKindOf } from './sandbox';
export { CLOCK_SKEW_WARN_MS } from './service-clock';
export { APP_VERSION } from './user-agent';
