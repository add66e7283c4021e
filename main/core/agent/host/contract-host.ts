// The core's side of the contract: argument parsing with each method's schema (the window is
// untrusted), one error shape for every failure, and the host both transports (IPC, HTTP) drive.
import type { z } from 'zod';
import { methods } from '../../../../preload/contract';
import type { ContractError, EventName, Events, MethodName, MethodResult, Methods } from '../../../../preload/contract';
import type { ErrorCode } from '../../../../preload/contract/error-codes';
import { ApiError } from '../../api/http';
import { ContractFailure, maybeDoneFailure } from '../../contract-failure';
import { errorCode, type Logger } from '../../log';

export { ContractFailure };
import { KeychainUnavailableError } from '../../secrets/keychain-errors';
import { UploadError } from '../../upload/ports';

/** Handler of each method, receiving its parsed arguments. */
export type Handlers = {
  [M in MethodName]: (args: z.output<Methods[M]['args']>) => Promise<MethodResult<M>>;
};

export type EventListener = <E extends EventName>(name: E, payload: Events[E]) => void;

/** What a transport needs from the core: call a method by name with raw arguments, and hear events. */
export type ContractHost = {
  /** Parses `rawArgs` with the method's schema, runs it, and throws a ContractFailure on any error. */
  call(name: MethodName, rawArgs: unknown): Promise<unknown>;
  subscribe(listener: EventListener): () => void;
};

/** True when `name` is a method of the contract (own keys only: `__proto__`, `toString` are not). */
export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(methods, name);
}

/** Parses a method's arguments; a schema failure becomes `invalid_args` with the fields at fault. */
export function parseArgs<M extends MethodName>(name: M, raw: unknown): z.output<Methods[M]['args']> {
  const parsed = methods[name].args.safeParse(raw ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues
      .slice(0, 20)
      .map((i) => ({ field: i.path.map(String).join('.') || '(args)', message: i.message }));
    throw new ContractFailure('invalid_args', `Invalid arguments for ${name}.`, details);
  }
  return parsed.data as z.output<Methods[M]['args']>;
}

/**
 * Any error as the wire shape: the code the window translates and a technical message. Unknown
 * errors become `internal` with a generic message (details go to the log).
 */
export function toContractError(e: unknown): ContractError & { code: ErrorCode } {
  if (e instanceof ContractFailure)
    return e.details ? { code: e.code, message: e.message, details: e.details } : { code: e.code, message: e.message };
  const maybeDone = maybeDoneFailure(e);
  if (maybeDone) return { code: maybeDone.code, message: maybeDone.message };
  // A network failure that is understood gets its own code (net_proxy_auth, net_cert_untrusted…).
  if (e instanceof ApiError && e.netFailure) return { code: `net_${e.netFailure.kind}`, message: e.message };
  if (e instanceof ApiError)
    return e.details.length > 0
      ? { code: e.code, message: e.message, details: e.details }
      : { code: e.code, message: e.message };
  if (e instanceof UploadError) return { code: e.code, message: e.message };
  if (e instanceof KeychainUnavailableError) return { code: e.code, message: e.message };
  return {
    code: 'internal',
    message: 'Something went wrong inside ScanBridge. Try again; if it keeps happening, restart the app.',
  };
}

/** A ContractFailure from any error (for transports that need an Error instance). */
export function toContractFailure(e: unknown): ContractFailure {
  if (e instanceof ContractFailure) return e;
  const c = toContractError(e);
  return new ContractFailure(c.code, c.message, c.details);
}

/**
 * Builds the host from the handlers: validates, runs, maps errors. Unexpected errors are logged by
 * the method and the error's code or class (never its message, which may quote a path or a name).
 */
export function createContractHost(
  handlers: Handlers,
  subscribe: ContractHost['subscribe'],
  log: Logger,
): ContractHost {
  return {
    subscribe,
    async call(name, rawArgs) {
      if (!isMethodName(name)) throw new ContractFailure('unknown_method', `Unknown method ${String(name)}.`);
      const args = parseArgs(name, rawArgs);
      try {
        const handler = handlers[name] as (a: unknown) => Promise<unknown>;
        return await handler(args);
      } catch (e) {
        const failure = toContractFailure(e);
        if (failure.code === 'internal') log.error('contract method failed', { method: name, code: errorCode(e) });
        throw failure;
      }
    },
  };
}
