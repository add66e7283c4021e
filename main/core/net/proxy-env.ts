// The proxy for a URL from the environment, read the way curl reads it: `https_proxy` for https
// URLs, `http_proxy` for http ones, `all_proxy` for either (lower case first, then upper case), and
// `no_proxy` (a comma- or space-separated list: `*`, host names matching themselves and their
// subdomains with or without a leading dot, IP addresses, an optional `:port`; no CIDR ranges). Loopback is not
// special: it goes through the proxy unless `no_proxy` names it.

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * A proxy variable's value, lower case first, then upper case. An empty (or blank) value counts as
 * unset, as curl takes it: `https_proxy=` left empty by a login script must not hide `HTTPS_PROXY`.
 */
export function proxyEnvValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  for (const v of [env[name.toLowerCase()], env[name.toUpperCase()]])
    if (v !== undefined && v.trim() !== '') return v.trim();
  return undefined;
}

/** Strips IPv6 brackets and a trailing dot, lower case. */
function bareHost(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** True when one `no_proxy` entry covers this host and port. */
function entryMatches(entry: string, host: string, port: number): boolean {
  let name = entry;
  const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
  if (withPort) {
    if (Number(withPort[2]) !== port) return false;
    name = withPort[1] ?? entry;
  }
  name = bareHost(name.replace(/^\*?\./, ''));
  if (name === '') return false;
  return host === name || host.endsWith(`.${name}`);
}

/** True when `no_proxy` (either case) says this URL goes direct. */
export function bypassesProxy(env: NodeJS.ProcessEnv, url: URL): boolean {
  const list = proxyEnvValue(env, 'no_proxy');
  if (!list) return false;
  const host = bareHost(url.hostname);
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  return list
    .split(/[,\s]+/)
    .filter((e) => e !== '')
    .some((e) => e === '*' || entryMatches(e.toLowerCase(), host, port));
}

/** The proxy URL the environment names for `target` (credentials included), or null for direct. */
export function proxyFromEnv(env: NodeJS.ProcessEnv, target: string): string | null {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const named = proxyEnvValue(env, `${url.protocol.slice(0, -1)}_proxy`) ?? proxyEnvValue(env, 'all_proxy');
  if (!named || bypassesProxy(env, url)) return null;
  // curl's default scheme for a proxy given without one is http://.
  return named.includes('://') ? named : `http://${named}`;
}
