// The one place that says how ScanBridge reaches a URL: through which proxy (if any) and trusting
// which CAs. Both the API client (got) and the presigned storage transfers (node:http) take their
// connection pools from a Network, so they always agree. Proxies are tunnelled with CONNECT by
// hpagent's agents (for http:// targets too); nothing in the process is patched.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { bypassesProxy, proxyEnvValue, proxyFromEnv } from './proxy-env';
import { resolveTrust, type Trust, type TrustOptions } from './trust';
import type { ProxySource } from '../../../preload/contract';

/** A proxy for one URL: its address (with the login, if any) and where it was configured. */
export type ProxyRoute = { url: URL; source: ProxySource };

/** Chooses the proxy for a URL; null means a direct connection. */
export type ProxyResolver = (target: string) => Promise<ProxyRoute | null>;

/** A pair of connection pools for one route. */
export type NetAgents = { http: HttpAgent; https: HttpsAgent };

export type AgentOptions = { maxSockets?: number; keepAlive?: boolean };

export type Network = {
  /** The proxy for `target`, or null for a direct connection. */
  route(target: string): Promise<ProxyRoute | null>;
  trust: Trust;
  /** New connection pools for `route` (the caller owns and destroys them). */
  agents(route: ProxyRoute | null, options?: AgentOptions): NetAgents;
};

/** The proxy's address for people and logs: scheme, host and port, never the login. */
export function proxyLabel(route: ProxyRoute | null): string | null {
  if (!route) return null;
  return `${route.url.protocol}//${route.url.host}`;
}

/** A proxy URL string as a route; throws on an address that is not an http(s) URL. */
export function proxyRoute(address: string, source: ProxySource): ProxyRoute {
  const url = new URL(address.includes('://') ? address : `http://${address}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`unsupported proxy scheme ${url.protocol} (only http:// and https:// proxies)`);
  return { url, source };
}

/** The environment's proxies (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY). */
export function envProxyResolver(env: NodeJS.ProcessEnv): ProxyResolver {
  return (target) => {
    const address = proxyFromEnv(env, target);
    return Promise.resolve(address ? proxyRoute(address, 'env') : null);
  };
}

/** True when the environment names any proxy (then it decides, NO_PROXY included). */
export function envNamesProxy(env: NodeJS.ProcessEnv): boolean {
  return ['https_proxy', 'http_proxy', 'all_proxy'].some((n) => proxyEnvValue(env, n) !== undefined);
}

/**
 * Electron's `session.resolveProxy` answer (a PAC result: `DIRECT`, `PROXY host:port; DIRECT`,
 * `HTTPS host:port`…) as a route: the first PROXY or HTTPS entry; SOCKS entries are skipped.
 */
export function routeFromPacResult(result: string): ProxyRoute | null {
  for (const entry of result.split(';')) {
    const [kind, hostPort] = entry.trim().split(/\s+/);
    if (!kind || kind.toUpperCase() === 'DIRECT') return null;
    if (!hostPort) continue;
    if (kind.toUpperCase() === 'PROXY') return proxyRoute(`http://${hostPort}`, 'system');
    if (kind.toUpperCase() === 'HTTPS') return proxyRoute(`https://${hostPort}`, 'system');
  }
  return null;
}

/** The system's proxy (and PAC file) through the desktop shell's resolver. */
export function systemProxyResolver(resolve: (url: string) => Promise<string>): ProxyResolver {
  return async (target) => routeFromPacResult(await resolve(target));
}

/** One proxy for every URL (the proxy saved in Settings) but those `NO_PROXY` names. */
export function fixedProxyResolver(route: ProxyRoute, env: NodeJS.ProcessEnv = {}): ProxyResolver {
  return (target) => {
    let url: URL | null = null;
    try {
      url = new URL(target);
    } catch {
      url = null;
    }
    return Promise.resolve(url && bypassesProxy(env, url) ? null : route);
  };
}

export const directResolver: ProxyResolver = () => Promise.resolve(null);

/** Builds a network on a resolver and a trust. */
export function createNetwork(resolver: ProxyResolver, trust: Trust): Network {
  const tlsOptions = trust.ca ? { ca: trust.ca } : {};
  return {
    route: resolver,
    trust,
    agents(route, options = {}) {
      const common = {
        keepAlive: options.keepAlive ?? true,
        ...(options.maxSockets ? { maxSockets: options.maxSockets } : {}),
      };
      if (!route) return { http: new HttpAgent(common), https: new HttpsAgent({ ...common, ...tlsOptions }) };
      const proxyRequestOptions = trust.ca ? { ca: trust.ca } : {};
      return {
        http: new HttpProxyAgent({ ...common, proxy: route.url, proxyRequestOptions }),
        https: new HttpsProxyAgent({ ...common, ...tlsOptions, proxy: route.url, proxyRequestOptions }),
      };
    },
  };
}

/** What a front end knows about the network it runs on. */
export type NetworkSources = TrustOptions & {
  /** The proxy saved in Settings (with its login filled in from the keychain), if any. */
  settingsProxy?: ProxyRoute | null;
  /** The desktop app's system proxy resolver (Electron's session.resolveProxy). */
  systemResolve?: (url: string) => Promise<string>;
};

/**
 * The network for a front end. The proxy: the one saved in Settings when there is one (the clinic's
 * explicit choice, as git's http.proxy or VS Code's http.proxy win over the environment), for every
 * URL but those `NO_PROXY` names; else the environment's when it names one (CLI, `serve`); else the
 * system's (desktop app: its settings and PAC file); else none. Throws TrustFileError when a CA
 * file cannot be used.
 */
export function networkFrom(sources: NetworkSources): Network {
  const trust = resolveTrust(sources);
  let resolver: ProxyResolver = directResolver;
  if (sources.settingsProxy) resolver = fixedProxyResolver(sources.settingsProxy, sources.env);
  else if (envNamesProxy(sources.env)) resolver = envProxyResolver(sources.env);
  else if (sources.systemResolve) resolver = systemProxyResolver(sources.systemResolve);
  return createNetwork(resolver, trust);
}

let current: Network | null = null;
let generation = 0;

/** The process's network: set by the front end at start (`useNetwork`), else the environment's. */
export function currentNetwork(): Network {
  current ??= networkFrom({ env: process.env });
  return current;
}

/** Sets the process's network (front ends at start, and when Settings change it). */
export function useNetwork(network: Network | null): void {
  current = network;
  generation++;
}

/** Changes each time `useNetwork` sets another network: clients built on an older one are rebuilt. */
export function networkGeneration(): number {
  return generation;
}
