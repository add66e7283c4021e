import type { EventName, Events, MethodArgs, MethodName, MethodResult } from '../../../preload/contract';

export type ConnectionState = 'open' | 'lost';

/**
 * How the window talks to the core. Both transports (Electron IPC, browser-mode HTTP + SSE) behave
 * the same: calls reject with a ContractError value, events carry the contract's payloads.
 */
export type Transport = {
  kind: 'ipc' | 'http';
  call<M extends MethodName>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>>;
  on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): () => void;
  /** Reports the event stream going away and coming back (events may have been missed meanwhile). */
  onConnection(listener: (state: ConnectionState) => void): () => void;
};
