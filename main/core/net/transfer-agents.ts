// Connection pools for one upload job's presigned PUTs, chosen per URL on the process's network:
// one pair of pools per proxy in use (usually one), each sized to the job's concurrency.
import { currentNetwork, type NetAgents, type Network, proxyLabel } from './network';

/** The pools for one URL (a route failure, e.g. a PAC script's, rejects). */
export type TransferRouter = (url: string) => Promise<NetAgents>;

export type RoutedAgents = NetAgents & { destroy: () => void; route: TransferRouter };

/** Pools for `maxSockets` parallel PUTs on `network`. */
export function transferRouter(maxSockets: number, network: Network = currentNetwork()): RoutedAgents {
  const pools = new Map<string, NetAgents>();
  const poolFor = (label: string | null, make: () => NetAgents): NetAgents => {
    const key = label ?? '';
    let pair = pools.get(key);
    if (!pair) {
      pair = make();
      pools.set(key, pair);
    }
    return pair;
  };
  const direct = poolFor(null, () => network.agents(null, { maxSockets }));
  return {
    http: direct.http,
    https: direct.https,
    route: async (url) => {
      const r = await network.route(url);
      return poolFor(proxyLabel(r), () => network.agents(r, { maxSockets }));
    },
    destroy: () => {
      for (const p of pools.values()) {
        p.http.destroy();
        p.https.destroy();
      }
    },
  };
}
