import type { ScanBridgeApi } from '../../../preload/contract';
import { asContractError } from './contract-error';
import type { Transport } from './types';

type Group = Record<string, (args: unknown) => Promise<unknown>>;

const camel = (s: string): string => s.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The Electron transport: the preload's `window.scanbridge` (named methods grouped by domain). */
export function ipcTransport(api: ScanBridgeApi): Transport {
  const groups = api as unknown as Record<string, Group | undefined>;
  return {
    kind: 'ipc',
    async call(name, args) {
      const [domain = '', action = ''] = name.split(':');
      const fn = groups[domain]?.[camel(action)];
      if (!fn) throw { code: 'unknown_method', message: `Unknown method ${name}.` };
      try {
        return (await fn(args)) as never;
      } catch (e) {
        throw asContractError(e);
      }
    },
    on: (name, listener) => api.on(name, listener),
    // IPC events cannot be missed while the window lives.
    onConnection: () => () => undefined,
  };
}
