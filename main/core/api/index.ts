// The API v1 client's public surface.
export * from './client';
export * from './http/api-errors';
export type {
  BinaryAnswer,
  CallKind,
  CallOptions,
  RateLimitMode,
  RetryInfo,
  Timeouts,
  TransportEvent,
} from './http/http';
export { DEFAULT_TIMEOUTS } from './http/http';
export * from './http/rate-meter';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './http/retry';
export * from './http/sandbox';
export type * from './endpoints/account';
export type * from './endpoints/activity';
export type * from './endpoints/consent';
export type * from './endpoints/exams';
export type * from './endpoints/implants';
export type * from './endpoints/referrers';
export type * from './endpoints/reports';
export type * from './http/api-schema';
export type * from './endpoints/support';
export type * from './endpoints/templates';
export type * from './endpoints/webhooks';
