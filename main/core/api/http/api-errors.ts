import { z } from 'zod';

/** One field-level problem reported by the service with a `validation_error`. */
export type FieldProblem = { field: string; message: string };

/** Codes of client errors: the API's own codes plus the client-side ones (see ErrorCode). */
export type { ApiErrorCode } from '../../../../preload/contract/error-codes';
import type { ApiErrorCode } from '../../../../preload/contract/error-codes';
import type { NetFailure } from '../../net/net-failure';
import { type Failure, failureOfCause, networkCodeFailure, statusFailure } from '../../net/failure-class';

type ErrorInit = {
  status?: number;
  /** The code exactly as the service sent it (may differ from `code` for unknown codes). */
  serviceCode?: string;
  /** The service's own message, for diagnostics (it may echo submitted values); not for the receptionist. */
  serviceMessage?: string;
  method?: string;
  path?: string;
  cause?: unknown;
  /** validation_error: the fields the service rejected. */
  details?: FieldProblem[];
  /** insufficient_scope: the permission the call needs. */
  requiredScope?: string;
  /** rate_limited: when the service accepts calls again. */
  retryAfterSeconds?: number;
  /** upload_incomplete: the files storage does not hold yet. */
  missing?: string[];
  /** network_error: the system error code (ECONNRESET, ECONNREFUSED, ENOTFOUND…). */
  networkCode?: string;
  /** network_error: what went wrong on the way (DNS, proxy login, certificate…), when known. */
  netFailure?: NetFailure;
  /** network_error: false only when the request certainly never reached the service (refused, DNS). */
  mayHaveReachedService?: boolean;
  /** timeout: the limit that was exceeded. */
  timeoutMs?: number;
  /**
   * A call that is not safe to repeat failed after it may have reached the service (connection
   * lost or time-out while waiting for the answer): it may have been carried out. Never retried.
   */
  outcomeUnknown?: boolean;
};

const TRANSIENT: ReadonlySet<ApiErrorCode> = new Set([
  'thumbnail_not_ready',
  'rate_limited',
  'server_error',
  'network_error',
  'timeout',
]);

/**
 * Every failure of the API client: the service's code (or a client-side one), the HTTP status and
 * the details the code carries. Callers branch on `code`; the words for people live with each
 * front end (the window's locale files, the CLI's messages). `message` is technical: code, status,
 * method and path (ids only), never the service's own message, which may echo patient data.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number | undefined;
  readonly serviceCode: string | undefined;
  readonly serviceMessage: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly details: FieldProblem[];
  readonly requiredScope: string | undefined;
  readonly retryAfterSeconds: number;
  readonly missing: string[];
  readonly networkCode: string | undefined;
  readonly netFailure: NetFailure | undefined;
  readonly mayHaveReachedService: boolean;
  readonly timeoutMs: number | undefined;
  /** See ErrorInit.outcomeUnknown: the call may have been carried out; check before repeating it. */
  readonly outcomeUnknown: boolean;

  constructor(
    readonly code: ApiErrorCode,
    init: ErrorInit = {},
  ) {
    const where = init.method && init.path ? ` ${init.method} ${init.path}` : '';
    const status = init.status !== undefined ? ` (HTTP ${init.status})` : '';
    const sys = init.networkCode ? ` (${init.networkCode}${init.netFailure ? `: ${init.netFailure.kind}` : ''})` : '';
    super(`${code}${status}${sys}${where}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.serviceCode = init.serviceCode;
    this.serviceMessage = init.serviceMessage;
    this.method = init.method;
    this.path = init.path;
    this.details = init.details ?? [];
    this.requiredScope = init.requiredScope;
    this.retryAfterSeconds = init.retryAfterSeconds ?? 0;
    this.missing = init.missing ?? [];
    this.networkCode = init.networkCode;
    this.netFailure = init.netFailure;
    this.mayHaveReachedService = init.mayHaveReachedService ?? true;
    this.timeoutMs = init.timeoutMs;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }

  /** True when repeating the same call later may succeed without changing it. */
  get transient(): boolean {
    return TRANSIENT.has(this.code);
  }
}

/** True when `e` is an ApiError with one of `codes`. */
export function isApiError(e: unknown, ...codes: ApiErrorCode[]): e is ApiError {
  return e instanceof ApiError && (codes.length === 0 || codes.includes(e.code));
}

const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string().optional(),
    message: z.string().optional(),
    details: z
      .array(z.looseObject({ field: z.coerce.string().catch(''), message: z.coerce.string().catch('') }))
      .optional()
      .catch(undefined),
    required_scope: z.string().optional().catch(undefined),
    retry_after_seconds: z.number().nonnegative().optional().catch(undefined),
    missing: z.array(z.string()).optional().catch(undefined),
  }),
});

/** What the error mapper needs to know about one non-2xx answer. */
export type ErrorAnswer = {
  status: number;
  /** The parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
  /** Seconds from the Retry-After header (or the reset time), when present. */
  retryAfterSeconds?: number;
  method?: string;
  path?: string;
};

/** Builds the typed exception for a non-2xx answer from its `{error:{code,message}}` body and status. */
export function errorFromAnswer(answer: ErrorAnswer): ApiError {
  const parsed = errorBodySchema.safeParse(answer.body);
  const e = parsed.success ? parsed.data.error : undefined;
  const init: ErrorInit = {
    status: answer.status,
    serviceCode: e?.code,
    serviceMessage: e?.message,
    method: answer.method,
    path: answer.path,
  };
  const code = e?.code;
  const { status } = answer;
  if (code === 'rate_limited' || status === 429) {
    return new ApiError('rate_limited', {
      ...init,
      retryAfterSeconds: answer.retryAfterSeconds ?? e?.retry_after_seconds ?? 60,
    });
  }
  switch (code) {
    case 'unauthorized':
    case 'plan_required':
    case 'thumbnail_not_ready':
    case 'not_found':
    case 'limit_exceeded':
    case 'conflict':
      return new ApiError(code, init);
    case 'insufficient_scope':
      return new ApiError(code, {
        ...init,
        ...(e?.required_scope !== undefined ? { requiredScope: e.required_scope } : {}),
      });
    case 'validation_error':
      return new ApiError(code, { ...init, details: e?.details ?? [] });
    case 'upload_incomplete':
      return new ApiError(code, { ...init, missing: e?.missing ?? [] });
  }
  // A time-out answered by the service or a gateway (408, 504) is the same as one seen here: the
  // call was not done in time, and repeating it later may succeed (net/failure-class.ts).
  if (statusFailure(status).cause === 'timeout') return new ApiError('timeout', init);
  if (status >= 500) return new ApiError('server_error', init);
  switch (status) {
    case 400:
    case 422:
      return new ApiError('validation_error', { ...init, details: e?.details ?? [] });
    case 401:
      return new ApiError('unauthorized', init);
    case 403:
      return new ApiError('forbidden', init);
    case 404:
      return new ApiError('not_found', init);
    case 409:
      return new ApiError('conflict', init);
  }
  return new ApiError('http_error', init);
}

/**
 * The class and cause of a client error (net/failure-class.ts): what the person can do about it.
 * Null for a call cancelled on purpose, which is no failure.
 */
export function apiFailure(e: ApiError): Failure | null {
  switch (e.code) {
    case 'aborted':
      return null;
    case 'timeout':
      return failureOfCause('timeout');
    case 'server_error':
    case 'invalid_response':
    case 'thumbnail_not_ready':
      return failureOfCause('server_error');
    case 'rate_limited':
      return failureOfCause('rate_limited');
    case 'network_error':
      if (e.netFailure)
        return failureOfCause(
          e.netFailure.kind === 'name_not_found' || e.netFailure.kind === 'unreachable'
            ? e.netFailure.kind
            : 'network_setup',
        );
      return e.networkCode ? networkCodeFailure(e.networkCode) : failureOfCause('connection_lost');
    case 'unauthorized':
      return failureOfCause('unauthorized');
    case 'insufficient_scope':
    case 'forbidden':
      return failureOfCause('forbidden');
    case 'not_found':
      return failureOfCause('not_found');
    case 'validation_error':
    case 'upload_incomplete':
      return failureOfCause('invalid_request');
    case 'conflict':
      return failureOfCause('conflict');
    case 'limit_exceeded':
    case 'plan_required':
      return failureOfCause('plan_limit');
    case 'http_error':
      return statusFailure(e.status ?? 400);
  }
}
