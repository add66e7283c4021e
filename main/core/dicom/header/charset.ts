// Text decoding with the Specific Character Set (0008,0005). dicom-parser returns raw bytes;
// dicom-character-set turns them into Unicode (single-byte sets, UTF-8, GB18030 and ISO 2022
// code extensions). Vendors mislabel sets, so a value that does not decode cleanly falls back
// to a best guess instead of failing the file: staff can always correct the prefill.
import { createRequire } from 'node:module';

type ConvertBytes = (charset: string | undefined, bytes: Uint8Array, options?: { vr?: string }) => string;

// The package ships no type declarations; load it through require and check its shape once.
const loaded: unknown = createRequire(import.meta.url)('dicom-character-set');

function hasConvertBytes(mod: unknown): mod is { convertBytes: ConvertBytes } {
  return (
    typeof mod === 'object' && mod !== null && typeof (mod as { convertBytes?: unknown }).convertBytes === 'function'
  );
}

if (!hasConvertBytes(loaded)) throw new Error('dicom-character-set: convertBytes not found');
const convertBytes: ConvertBytes = loaded.convertBytes;

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

export type DecodedText = { text: string; fallback: boolean };

const latin1 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) >= 0x80 || bytes[i] === 0x1b) return false;
  return true;
}

function decodeUncached(declared: string, bytes: Uint8Array, vr: string): DecodedText {
  if (declared !== '') {
    try {
      const text = convertBytes(declared, bytes, { vr });
      if (!text.includes('\uFFFD')) return { text, fallback: false };
    } catch {
      // Unknown term or bad escape sequence: fall through to the guesses below.
    }
  }
  // Undeclared or mislabelled: UTF-8 when the bytes are valid UTF-8 (a common unlabelled export),
  // else Latin-1, which maps every byte and is what most Western European systems write.
  try {
    return { text: utf8Strict.decode(bytes), fallback: true };
  } catch {
    return { text: latin1(bytes), fallback: true };
  }
}

// Every slice of a series repeats the same names and descriptions: decoding each distinct value
// once keeps large scans fast (the character-set library builds a decoder per call).
const cache = new Map<string, DecodedText>();
const CACHE_LIMIT = 512;

/** Decodes a text value (PN, LO, SH, ST, LT, UT) with the file's Specific Character Set, never throwing. */
export function decodeText(charset: string, bytes: Uint8Array, vr: string): DecodedText {
  if (isAscii(bytes)) return { text: latin1(bytes), fallback: false };
  const declared = charset.trim();
  const key = `${declared}\u0001${vr}\u0001${latin1(bytes)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const decoded = decodeUncached(declared, bytes, vr);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, decoded);
  return decoded;
}

/** Decodes a value whose VR allows only the default repertoire (UI, CS, DA, IS, AE). */
export function decodeAscii(bytes: Uint8Array): string {
  return latin1(bytes);
}
