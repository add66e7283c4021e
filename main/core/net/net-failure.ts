// What went wrong on the way to the service, from the system's and TLS's error codes, in one place:
// the API client, the transfers, the connection check and every front end's words start here.
import { NET_FAILURE_KINDS, type NetFailureKind } from '../../../preload/contract/vocabulary';
import type { NetFailure } from '../../../preload/contract';

/**
 * The kinds of failure (defined once in preload/contract/vocabulary.ts, shared with the window):
 * - `name_not_found`: DNS has no such name (or no DNS at all);
 * - `unreachable`: the connection was refused, reset before any answer, or timed out;
 * - `proxy_auth`: the proxy asked for a login or refused the one given (407);
 * - `proxy_unreachable`: the proxy itself cannot be reached or refused the tunnel;
 * - `cert_untrusted`: a certificate this computer does not trust (often a network that inspects TLS);
 * - `cert_invalid`: a certificate that has expired or is for another name;
 * - `clock_wrong`: certificates look not yet valid: this computer's clock is wrong.
 */
export { NET_FAILURE_KINDS, type NetFailureKind };

/** A classified failure: its kind, the system code it came from, the host asked for and the proxy in use (declared in the contract, which carries it to the window). */
export type { NetFailure };

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
]);
const INVALID = new Set(['CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_REVOKED', 'HOSTNAME_MISMATCH']);
const CLOCK = new Set(['CERT_NOT_YET_VALID', 'CRL_NOT_YET_VALID']);
const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const UNREACHABLE = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE']);

/** The error and its causes, outermost first (got wraps the system error). */
function chain(err: unknown): { code?: unknown; message?: unknown }[] {
  const out: { code?: unknown; message?: unknown }[] = [];
  let e: unknown = err;
  while (typeof e === 'object' && e !== null && out.length < 8) {
    out.push(e as { code?: unknown; message?: unknown });
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

function kindOf(code: string, viaProxy: boolean): NetFailureKind | null {
  if (UNTRUSTED.has(code)) return 'cert_untrusted';
  if (INVALID.has(code)) return 'cert_invalid';
  if (CLOCK.has(code)) return 'clock_wrong';
  // Through a proxy, the only names and sockets this computer deals with are the proxy's.
  if (DNS.has(code)) return viaProxy ? 'proxy_unreachable' : 'name_not_found';
  if (UNREACHABLE.has(code)) return viaProxy && code !== 'ETIMEDOUT' ? 'proxy_unreachable' : 'unreachable';
  return null;
}

/**
 * The failure behind `err` (a got or node:http error), or null when it is not a network failure.
 * `host` is the host (and port) asked for; `proxy` the label of the proxy the request went through
 * (null when direct).
 */
export function classifyNetFailure(err: unknown, host: string, proxy: string | null): NetFailure | null {
  for (const e of chain(err)) {
    const message = typeof e.message === 'string' ? e.message : '';
    // hpagent reports a refused tunnel as "Bad response: <status>". A login refused is 407 (some
    // proxies, tinyproxy 1.11 among them, answer a CONNECT with 401): either can only be the proxy's.
    const tunnel = /Bad response: (\d{3})/.exec(message);
    if (tunnel) {
      const status = tunnel[1] ?? '';
      const login = status === '407' || status === '401';
      return { kind: login ? 'proxy_auth' : 'proxy_unreachable', code: `HTTP ${status}`, host, proxy };
    }
    if (message === 'Proxy timeout') return { kind: 'proxy_unreachable', code: 'ETIMEDOUT', host, proxy };
  }
  for (const e of chain(err)) {
    if (typeof e.code !== 'string') continue;
    const kind = kindOf(e.code, proxy !== null);
    if (kind) return { kind, code: e.code, host, proxy };
  }
  return null;
}

/** True when a request that failed this way certainly never reached the service. */
export function neverReachedService(f: NetFailure): boolean {
  return f.kind !== 'unreachable' || f.code === 'ECONNREFUSED' || f.code === 'EHOSTUNREACH' || f.code === 'ENETUNREACH';
}

/**
 * The classified failure an error carries (`netFailure`, as the API client's errors do), looked
 * for through its causes (an upload's error wraps the client's). Null when there is none.
 */
export function netFailureBehind(err: unknown): NetFailure | null {
  let e: unknown = err;
  for (let i = 0; i < 8 && typeof e === 'object' && e !== null; i++) {
    const f = (e as { netFailure?: Partial<NetFailure> }).netFailure;
    if (
      f &&
      typeof f.kind === 'string' &&
      NET_FAILURE_KINDS.includes(f.kind) &&
      typeof f.code === 'string' &&
      typeof f.host === 'string'
    )
      return { kind: f.kind, code: f.code, host: f.host, proxy: typeof f.proxy === 'string' ? f.proxy : null };
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
