// The signed consent's proof: the SHA-256 of the PDF bytes as downloaded, compared with the hash
// the service recorded when it generated the document.
import { createHash } from 'node:crypto';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** True when the service's hash (hex, any case) names exactly these bytes. */
export function hashMatches(
  bytes: Uint8Array,
  serviceHash: string | null | undefined,
): { local: string; verified: boolean } {
  const local = sha256Hex(bytes);
  return { local, verified: typeof serviceHash === 'string' && serviceHash.trim().toLowerCase() === local };
}
