// Every failure an HTTP call can end in, classed by what the person at the clinic can do about
// it, in one table: the API client (api/api-errors.ts), the storage transfers (upload/transfer.ts)
// and the zip steps (process-zip is an API call; its archive travels as a storage transfer) all
// read their status codes and system error codes here, so one cause gets one class everywhere: a
// 408 from the service and a 408 from storage both mean "it took too long, it resumes".
import { t, type Language } from '../i18n';

/**
 * What the person can do:
 * - `transient`: nothing; it resumes by itself (or on "run again") once the service answers in time;
 * - `unreachable`: check this computer's connection; it resumes once the service can be reached;
 * - `network_setup`: ask IT (proxy login, certificates, clock): repeating fails the same way;
 * - `access`: check the API key or ask for one with the right permissions;
 * - `request`: change what was sent (a field, a file): sending it again as it is fails again;
 * - `plan`: the account's plan or limits: ask the account holder;
 * - `gone`: the item no longer exists on the service.
 */
export const FAILURE_CLASSES = [
  'transient',
  'unreachable',
  'network_setup',
  'access',
  'request',
  'plan',
  'gone',
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** The cause within a class, for the words: a time-out is said apart from a failing service. */
export const FAILURE_CAUSES = [
  'timeout',
  'server_error',
  'rate_limited',
  'connection_lost',
  'unreachable',
  'name_not_found',
  'network_setup',
  'unauthorized',
  'forbidden',
  'invalid_request',
  'too_large',
  'conflict',
  'plan_limit',
  'not_found',
] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

export type Failure = { class: FailureClass; cause: FailureCause };

const CLASS_OF: Record<FailureCause, FailureClass> = {
  timeout: 'transient',
  server_error: 'transient',
  rate_limited: 'transient',
  connection_lost: 'transient',
  unreachable: 'unreachable',
  name_not_found: 'unreachable',
  network_setup: 'network_setup',
  unauthorized: 'access',
  forbidden: 'access',
  invalid_request: 'request',
  too_large: 'request',
  conflict: 'request',
  plan_limit: 'plan',
  not_found: 'gone',
};

const failure = (cause: FailureCause): Failure => ({ class: CLASS_OF[cause], cause });

/** Each HTTP status the service, storage or a proxy on the way may answer, and its cause. */
export const STATUS_CAUSES: Readonly<Record<number, FailureCause>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  402: 'plan_limit',
  403: 'forbidden',
  404: 'not_found',
  405: 'invalid_request',
  // The server gave up waiting for the request (a slow link, a stalled upload): nothing was done.
  408: 'timeout',
  409: 'conflict',
  410: 'not_found',
  411: 'invalid_request',
  413: 'too_large',
  414: 'invalid_request',
  415: 'invalid_request',
  422: 'invalid_request',
  // A proxy that needs a login answers 407 to a plain http request.
  407: 'network_setup',
  425: 'timeout',
  429: 'rate_limited',
  500: 'server_error',
  501: 'server_error',
  502: 'server_error',
  503: 'server_error',
  // A gateway (or the service's own worker, as process-zip does) gave up waiting: a time-out.
  504: 'timeout',
  507: 'server_error',
};

/** The class and cause of an HTTP status (any other 4xx is a request problem, any other 5xx the service's). */
export function statusFailure(status: number): Failure {
  const cause = STATUS_CAUSES[status];
  if (cause) return failure(cause);
  return failure(status >= 500 ? 'server_error' : 'invalid_request');
}

/** Each system error code a call may fail with before any answer, and its cause. */
export const NETWORK_CODE_CAUSES: Readonly<Record<string, FailureCause>> = {
  // No answer in time, or no byte moving (the transfers' stall): a time-out.
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  STALLED: 'timeout',
  // The connection broke after it was made.
  ECONNRESET: 'connection_lost',
  EPIPE: 'connection_lost',
  ECONNABORTED: 'connection_lost',
  ERR_STREAM_PREMATURE_CLOSE: 'connection_lost',
  HPE_INVALID_CONSTANT: 'connection_lost',
  // No connection could be made.
  ECONNREFUSED: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENETDOWN: 'unreachable',
  ENOTFOUND: 'name_not_found',
  EAI_AGAIN: 'name_not_found',
  EAI_FAIL: 'name_not_found',
  EAI_NONAME: 'name_not_found',
};

/** The class and cause of a system error code (unknown ones: the connection broke). */
export function networkCodeFailure(code: string): Failure {
  return failure(NETWORK_CODE_CAUSES[code] ?? 'connection_lost');
}

/** True when the same request may succeed later as it is: the engine retries it and the job resumes. */
export function resumes(f: Failure): boolean {
  return f.class === 'transient' || f.class === 'unreachable';
}

/** The class of a cause (for callers that know the cause already, e.g. a proxy login refused). */
export function failureOfCause(cause: FailureCause): Failure {
  return failure(cause);
}

/** The words for a failure's cause, in `lang`. */
export function failureWords(f: Failure, lang: Language): string {
  return t(lang, `core.failure.${f.cause}`);
}
