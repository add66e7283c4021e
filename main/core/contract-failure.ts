// The error every part of the core raises for a failure the window must show: a stable code from
// the contract's list (translated by the window) and a technical message. It lives below every layer
// so that feature services (consent, …) raise it without importing the agent.
import type { ErrorCode } from '../../preload/contract/error-codes';

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
