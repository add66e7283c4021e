// Who may talk to the browser-mode server: only pages it served itself, on the loopback address.
// The Host check stops DNS rebinding (a foreign site resolving its name to 127.0.0.1); the Origin
// check stops other local pages; the token stops other local processes and users.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh random session token (256 bits, URL-safe). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Compares a presented token with the session's in constant time (lengths are hidden by hashing first). */
export function tokenMatches(presented: string | null | undefined, token: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 1024) return false;
  return timingSafeEqual(digest(presented), digest(token));
}

/** The only Host values accepted: the loopback names with our port. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** An Origin header, when present, must be our own page's origin exactly. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  return origin === undefined || origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

/** The token from `Authorization: Bearer <token>`, or null. */
export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return m?.[1] ?? null;
}
