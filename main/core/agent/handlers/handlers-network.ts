// Settings → Network: the proxy (its login in the keychain), the extra CA file, and "Check the connection": the
// connection check (diagnose/connection-check.ts) on the agent's service address, its active key's
// client and the process's network.
import type { ConnectionCheckView } from '../../../../preload/contract';
import { runConnectionCheck } from '../../diagnose/connection-check';
import { currentNetwork } from '../../net/network';
import type { Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

/** Runs the check for the window (and for the support bundle). */
export async function checkConnection(ctx: HandlerContext): Promise<ConnectionCheckView> {
  const baseUrl = ctx.settingsView().api_base_url || null;
  return runConnectionCheck({ baseUrl, apiKey: null, client: ctx.service.client, network: currentNetwork() });
}

export function createNetworkHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  | 'network:check'
  | 'network:proxy'
  | 'network:proxy-save'
  | 'network:ca-file'
  | 'network:ca-file-save'
  | 'service:reach'
> {
  return {
    'service:reach': async () => ctx.service.reach.current,
    'network:check': async () => checkConnection(ctx),
    'network:proxy': async () => ctx.proxy.view(),
    'network:proxy-save': async (args) => {
      const view = await ctx.proxy.save(args);
      // The client is rebuilt on the new network (and the window hears of the settings).
      ctx.keysChanged();
      return view;
    },
    'network:ca-file': async () => ctx.caFile.view(),
    'network:ca-file-save': async (args) => {
      const view = ctx.caFile.save(args.path);
      ctx.keysChanged();
      return view;
    },
  };
}
