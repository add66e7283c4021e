// Who may talk to the browser-mode server: only pages it served itself, on the loopback address.
// The Host check stops DNS rebinding (a foreign site resolving its name to 127.0.0.1); the Origin
// check stops other local pages; the token stops other local processes and users.
export { newToken, tokenMatches } from '../tokens';

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
