// The error every part of the core raises for a failure the window must show: a stable code from
// the contract's list (translated by the window) and a technical message. It lives below every layer
// so that feature services (consent, …) raise it without importing the agent.
import type { ErrorCode } from '../../preload/contract/error-codes';
import { ApiError } from './api/http';

/** A failure with a stable code the window translates (ContractError on the wire). */
export class ContractFailure extends Error {
  override name = 'ContractFailure';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: { field: string; message: string }[],
  ) {
    super(message);
  }
}

/**
 * A call that is not safe to repeat (a share e-mail, a new webhook, a ticket…) whose answer was lost
 * after it may have reached the service: `maybe_done`, so that the window says it may have been done
 * and looks before offering to try again, instead of inviting a duplicate. Null for any other error.
 */
export function maybeDoneFailure(e: unknown): ContractFailure | null {
  if (!(e instanceof ApiError) || !e.outcomeUnknown) return null;
  return new ContractFailure(
    'maybe_done',
    `The answer to ${e.method ?? 'a call'} ${e.path ?? ''} was lost after the request may have reached the service (${e.code}).`,
  );
}
