import { randomBytes } from 'node:crypto';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random identifier with the given prefix, e.g. newId('exm_') → exm_k3j9…. */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

export function randomDigits(n: number): string {
  const bytes = randomBytes(n);
  let out = '';
  for (const b of bytes) out += String(b % 10);
  return out;
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
