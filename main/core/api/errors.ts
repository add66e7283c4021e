import { z } from 'zod';

/** One field-level problem reported by the service with a `validation_error`. */
export type FieldProblem = { field: string; message: string };

/**
 * Stable codes of client errors: the API's own codes plus the client-side ones. The UI translates
 * by code; `message` is an English fallback fit to show a receptionist.
 */
export type ApiErrorCode =
  | 'unauthorized'
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'thumbnail_not_ready'
  | 'validation_error'
  | 'conflict'
  | 'upload_incomplete'
  | 'limit_exceeded'
  | 'plan_required'
  | 'rate_limited'
  | 'server_error'
  | 'network_error'
  | 'timeout'
  | 'aborted'
  | 'invalid_response'
  | 'http_error';

type ErrorInit = {
  status?: number;
  /** The code exactly as the service sent it (may differ from `code` for unknown codes). */
  serviceCode?: string;
  /** The service's own message, for diagnostics (it may echo submitted values); not for the receptionist. */
  serviceMessage?: string;
  method?: string;
  path?: string;
  cause?: unknown;
};

/** Base of every error thrown by the API client. */
export class ApiClientError extends Error {
  override name = 'ApiClientError';
  readonly status: number | undefined;
  readonly serviceCode: string | undefined;
  readonly serviceMessage: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    init: ErrorInit = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.serviceCode = init.serviceCode;
    this.serviceMessage = init.serviceMessage;
    this.method = init.method;
    this.path = init.path;
  }

  /** True when repeating the same call later may succeed without changing it. */
  get transient(): boolean {
    return false;
  }
}

/** 401: the key is missing, unknown or revoked. */
export class UnauthorizedError extends ApiClientError {
  override name = 'UnauthorizedError';
  constructor(init: ErrorInit = {}) {
    super('unauthorized', 'The API key was rejected. Check it in Settings.', init);
  }
}

/** 403 insufficient_scope: the key works but lacks the permission this action needs. */
export class InsufficientScopeError extends ApiClientError {
  override name = 'InsufficientScopeError';
  constructor(
    readonly requiredScope: string | undefined,
    init: ErrorInit = {},
  ) {
    super('insufficient_scope', 'This API key is not allowed to do this. Ask the account holder for a key with the right permissions.', init);
  }
}

/** 403 plan_required: the account's plan does not include this feature. */
export class PlanRequiredError extends ApiClientError {
  override name = 'PlanRequiredError';
  constructor(init: ErrorInit = {}) {
    super('plan_required', "This feature is not included in the account's plan. Ask the account holder to upgrade.", init);
  }
}

/** Any other 403. */
export class ForbiddenError extends ApiClientError {
  override name = 'ForbiddenError';
  constructor(init: ErrorInit = {}) {
    super('forbidden', 'The service refused this action for this account.', init);
  }
}

/** 404: the exam (or other item) does not exist or was deleted. */
export class NotFoundError extends ApiClientError {
  override name = 'NotFoundError';
  constructor(init: ErrorInit = {}, code: 'not_found' | 'thumbnail_not_ready' = 'not_found', message = 'The item was not found. It may have been deleted.') {
    super(code, message, init);
  }
}

/** 404 thumbnail_not_ready: the preview is still being generated. */
export class ThumbnailNotReadyError extends NotFoundError {
  override name = 'ThumbnailNotReadyError';
  constructor(init: ErrorInit = {}) {
    super(init, 'thumbnail_not_ready', 'The preview image is not ready yet. Try again in a minute.');
  }

  override get transient(): boolean {
    return true;
  }
}

/** 400 validation_error, with the fields the service rejected. */
export class ValidationError extends ApiClientError {
  override name = 'ValidationError';
  constructor(
    readonly details: FieldProblem[],
    init: ErrorInit = {},
  ) {
    const fields = [...new Set(details.map((d) => d.field))];
    super(
      'validation_error',
      fields.length > 0
        ? `Some information is not valid (${fields.join(', ')}). Please correct it and try again.`
        : 'Some information is not valid. Please correct it and try again.',
      init,
    );
  }
}

/** 409 conflict: the action does not fit the item's current state. */
export class ConflictError extends ApiClientError {
  override name = 'ConflictError';
  constructor(init: ErrorInit = {}, code: 'conflict' | 'upload_incomplete' = 'conflict', message = 'This action does not fit the current state of the item. Refresh and try again.') {
    super(code, message, init);
  }
}

/** 409 upload_incomplete: some files are not in storage yet. */
export class UploadIncompleteError extends ConflictError {
  override name = 'UploadIncompleteError';
  constructor(
    readonly missing: string[],
    init: ErrorInit = {},
  ) {
    super(init, 'upload_incomplete', `${missing.length || 'Some'} file(s) have not finished uploading yet.`);
  }
}

/** limit_exceeded (400 or 409): a plan or service limit was reached. */
export class LimitExceededError extends ApiClientError {
  override name = 'LimitExceededError';
  constructor(init: ErrorInit = {}) {
    super('limit_exceeded', 'A limit of the account or of the service was reached (exams, storage or size).', init);
  }
}

/** 429: too many requests; `retryAfterSeconds` says when the service accepts calls again. */
export class RateLimitedError extends ApiClientError {
  override name = 'RateLimitedError';
  constructor(
    readonly retryAfterSeconds: number,
    init: ErrorInit = {},
  ) {
    super('rate_limited', `Too many requests to the service. Try again in ${formatWait(retryAfterSeconds)}.`, init);
  }

  override get transient(): boolean {
    return true;
  }
}

/** 5xx: the service failed. */
export class ServerError extends ApiClientError {
  override name = 'ServerError';
  constructor(init: ErrorInit = {}) {
    super('server_error', 'The service had a problem. Try again in a few minutes.', init);
  }

  override get transient(): boolean {
    return true;
  }
}

/** The service could not be reached, or the connection broke. */
export class NetworkError extends ApiClientError {
  override name = 'NetworkError';
  constructor(
    /** The system error code (ECONNRESET, ECONNREFUSED, ENOTFOUND…). */
    readonly networkCode: string | undefined,
    /** False only when the request certainly never reached the service (connection refused, DNS). */
    readonly mayHaveReachedService: boolean,
    init: ErrorInit = {},
  ) {
    super('network_error', 'Cannot reach the service. Check the internet connection.', init);
  }

  override get transient(): boolean {
    return true;
  }
}

/** The service did not answer in time. */
export class TimeoutError extends ApiClientError {
  override name = 'TimeoutError';
  constructor(
    readonly timeoutMs: number,
    init: ErrorInit = {},
  ) {
    super('timeout', 'The service took too long to answer. Try again.', init);
  }

  override get transient(): boolean {
    return true;
  }
}

/** The caller cancelled the call (AbortSignal). */
export class AbortedError extends ApiClientError {
  override name = 'AbortedError';
  constructor(init: ErrorInit = {}) {
    super('aborted', 'The operation was cancelled.', init);
  }
}

/** A 2xx answer that does not have the shape the spec promises. */
export class InvalidResponseError extends ApiClientError {
  override name = 'InvalidResponseError';
  constructor(init: ErrorInit = {}) {
    super('invalid_response', 'The service sent an unexpected answer. Try again later or contact support.', init);
  }
}

/** Any other non-2xx answer. */
export class HttpError extends ApiClientError {
  override name = 'HttpError';
  constructor(init: ErrorInit = {}) {
    super('http_error', 'The service refused the request.', init);
  }
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.ceil(seconds))} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string().optional(),
    message: z.string().optional(),
    details: z.array(z.looseObject({ field: z.coerce.string().catch(''), message: z.coerce.string().catch('') })).optional().catch(undefined),
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
export function errorFromAnswer(answer: ErrorAnswer): ApiClientError {
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
    return new RateLimitedError(answer.retryAfterSeconds ?? e?.retry_after_seconds ?? 60, init);
  }
  switch (code) {
    case 'unauthorized':
      return new UnauthorizedError(init);
    case 'insufficient_scope':
      return new InsufficientScopeError(e?.required_scope, init);
    case 'plan_required':
      return new PlanRequiredError(init);
    case 'thumbnail_not_ready':
      return new ThumbnailNotReadyError(init);
    case 'not_found':
      return new NotFoundError(init);
    case 'validation_error':
      return new ValidationError(e?.details ?? [], init);
    case 'upload_incomplete':
      return new UploadIncompleteError(e?.missing ?? [], init);
    case 'limit_exceeded':
      return new LimitExceededError(init);
    case 'conflict':
      return new ConflictError(init);
  }
  if (status >= 500) return new ServerError(init);
  switch (status) {
    case 400:
    case 422:
      return new ValidationError(e?.details ?? [], init);
    case 401:
      return new UnauthorizedError(init);
    case 403:
      return new ForbiddenError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
  }
  return new HttpError(init);
}
