import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which webhook URLs a subscription may use (API-v1.md §2.8: public HTTPS). Host names are not
 * resolved: only literal loopback/private addresses and `localhost` names are refused.
 * Returns a problem description, or null when the URL is acceptable.
 */
export function webhookUrlProblem(raw: string, insecureWebhooks: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = isLoopback(host);
  if (insecureWebhooks && loopback) return null;
  if (url.protocol !== 'https:') return 'must use https';
  if (loopback || isPrivate(host)) return 'must be a public address (loopback and private addresses are refused)';
  return null;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIPv4(host)) return host.startsWith('127.');
  if (isIPv6(host)) {
    const v4 = mappedV4(host);
    return host === '::1' || (v4 !== null && v4.startsWith('127.'));
  }
  return false;
}

const PRIVATE_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function v4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function isPrivateV4(ip: string): boolean {
  const n = v4Number(ip);
  return PRIVATE_V4.some(
    ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(base) / 2 ** (32 - bits)),
  );
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:7f00:1` → `127.0.0.1`). */
function mappedV4(host: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted?.[1]) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!hex?.[1] || !hex[2]) return null;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

function isPrivate(host: string): boolean {
  if (host.endsWith('.local') || host.endsWith('.internal')) return true;
  if (isIPv4(host)) return isPrivateV4(host);
  if (isIPv6(host)) {
    const v4 = mappedV4(host);
    if (v4) return isPrivateV4(v4);
    return host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('ff');
  }
  return false;
}
