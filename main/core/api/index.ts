// The API v1 client's public surface.
export * from './client';
export * from './api-errors';
export type { BinaryAnswer, CallKind, CallOptions, RateLimitMode, Timeouts, TransportEvent } from './http';
export { DEFAULT_TIMEOUTS } from './http';
export * from './rate-meter';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
export * from './sandbox';
export type * from './account';
export type * from './activity';
export type * from './consent';
export type * from './exams';
export type * from './implants';
export type * from './referrers';
export type * from './reports';
export type * from './api-schema';
export type * from './support';
export type * from './templates';
export type * from './webhooks';
