/** Decodes standard base64 strictly (no whitespace, correct padding); null when it is not base64. */
export function decodeStrictBase64(s: string): Buffer | null {
  if (s.length === 0 || s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return null;
  return Buffer.from(s, 'base64');
}
