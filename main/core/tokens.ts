// Random session tokens and their constant-time check: the browser-mode server's session token and
// the patient display's one-time consent token use the same two functions.
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
