import type { EventName, Events } from '../../../preload/contract';
import { rpcCall } from './rpc';
import type { ConnectionState, Transport } from './types';

type Listener = (payload: never) => void;

/**
 * The browser-mode transport (`scanbridge serve`): each call is `POST /rpc/<method>` with the
 * session token, events come over one Server-Sent Events stream on `/events`.
 */
export function httpTransport(token: string, origin: string): Transport {
  const listeners = new Map<EventName, Set<Listener>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let source: EventSource | null = null;
  let everOpen = false;
  let lost = false;

  const dispatch = (name: EventName, data: string): void => {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    for (const l of listeners.get(name) ?? []) (l as (p: unknown) => void)(payload);
  };

  const ensureSource = (): EventSource => {
    if (source) return source;
    const es = new EventSource(`${origin}/events?token=${encodeURIComponent(token)}`);
    es.addEventListener('open', () => {
      if (everOpen && lost) for (const l of connectionListeners) l('open');
      everOpen = true;
      lost = false;
    });
    es.addEventListener('error', () => {
      if (!lost) {
        lost = true;
        for (const l of connectionListeners) l('lost');
      }
    });
    source = es;
    return es;
  };

  const attached = new Set<EventName>();
  const attach = (name: EventName): void => {
    if (attached.has(name)) return;
    attached.add(name);
    ensureSource().addEventListener(name, (ev) => dispatch(name, (ev as MessageEvent<string>).data));
  };

  return {
    kind: 'http',
    async call(name, args) {
      return (await rpcCall(origin, token, name, args)) as never;
    },
    on<E extends EventName>(name: E, listener: (payload: Events[E]) => void) {
      attach(name);
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      const l = listener as Listener;
      set.add(l);
      return () => {
        set.delete(l);
      };
    },
    onConnection(listener) {
      ensureSource();
      connectionListeners.add(listener);
      return () => {
        connectionListeners.delete(listener);
      };
    },
  };
}
