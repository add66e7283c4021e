// The patient's drawn signature is evidence: main checks what it receives for in-person signing,
// whatever the window sent (the pad refuses an empty signature, but a page could send anything). A
// signature must be a real PNG of sane size whose pixels hold enough ink: a fully transparent or an
// all-white image, a solid fill, or something that is not a PNG at all is refused before the service
// is asked to sign.
//
// The decoder is small and strict on purpose (node:zlib only): it reads the non-interlaced 8-bit
// PNGs a canvas writes (grey, grey + alpha, RGB, RGBA, palette), checks every chunk's CRC and the
// dimensions before inflating, and inflates at most the bytes those dimensions need, so a small file
// cannot expand into a huge buffer.
import { inflateSync } from 'node:zlib';

/** Largest signature file accepted (bytes of PNG). */
export const MAX_SIGNATURE_BYTES = 1_500_000;
/** Largest canvas accepted, in pixels per side (a pad on a 4K screen at 2× stays well below). */
export const MAX_SIGNATURE_SIDE = 4096;
/** Smallest canvas accepted, in pixels per side. */
export const MIN_SIGNATURE_WIDTH = 100;
export const MIN_SIGNATURE_HEIGHT = 40;
/** Ink needed: at least this many pixels, and this share of the image. */
export const MIN_INK_PIXELS = 80;
export const MIN_INK_SHARE = 0.0003;
/** More ink than this share of the image is a fill, not a signature. */
export const MAX_INK_SHARE = 0.5;
/** The ink must spread over at least this share of the image's width (a dot or a dash is not a signature). */
export const MIN_INK_SPREAD = 0.03;

export type SignatureCheck =
  | { ok: true; width: number; height: number; ink: number }
  | { ok: false; reason: 'not_png' | 'too_large' | 'bad_size' | 'unreadable' | 'blank' | 'filled'; message: string };

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

class PngError extends Error {}

type Decoded = { width: number; height: number; rgba: (x: number, y: number) => [number, number, number, number] };

/** Decodes `png` (strict; see the file comment). Throws PngError on anything else. */
function decodePng(png: Buffer): Decoded {
  if (png.length < 8 + 25 || !png.subarray(0, 8).equals(PNG_MAGIC)) throw new PngError('not a PNG');
  let at = 8;
  let header: { width: number; height: number; depth: number; type: number; interlace: number } | null = null;
  let palette: Buffer | null = null;
  let alpha: Buffer | null = null;
  const idat: Buffer[] = [];
  let ended = false;
  while (at < png.length && !ended) {
    if (at + 12 > png.length) throw new PngError('truncated chunk');
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (length > png.length - at - 12) throw new PngError('truncated chunk');
    const data = png.subarray(at + 8, at + 8 + length);
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== png.readUInt32BE(at + 8 + length))
      throw new PngError(`bad CRC in ${type}`);
    at += 12 + length;
    if (!header && type !== 'IHDR') throw new PngError('IHDR is not first');
    if (type === 'IHDR') {
      if (header || length !== 13) throw new PngError('bad IHDR');
      header = {
        width: data.readUInt32BE(0),
        height: data.readUInt32BE(4),
        depth: data[8] ?? 0,
        type: data[9] ?? 0,
        interlace: data[12] ?? 0,
      };
      if (
        header.width < MIN_SIGNATURE_WIDTH ||
        header.height < MIN_SIGNATURE_HEIGHT ||
        header.width > MAX_SIGNATURE_SIDE ||
        header.height > MAX_SIGNATURE_SIDE
      ) {
        throw new SizeError(`${header.width}×${header.height} pixels`);
      }
      if (
        header.depth !== 8 ||
        CHANNELS[header.type] === undefined ||
        header.interlace !== 0 ||
        data[10] !== 0 ||
        data[11] !== 0
      ) {
        throw new PngError('unsupported PNG layout (8-bit, non-interlaced only)');
      }
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') alpha = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') ended = true;
    else if ((type.charCodeAt(0) & 0x20) === 0) throw new PngError(`unknown critical chunk ${type}`);
  }
  if (!header || !ended || idat.length === 0) throw new PngError('incomplete PNG');
  const { width, height } = header;
  const channels = CHANNELS[header.type] ?? 0;
  if (header.type === 3 && !palette) throw new PngError('palette missing');
  const stride = width * channels;
  const expected = height * (stride + 1);
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected });
  } catch {
    throw new PngError('image data does not inflate to its dimensions');
  }
  if (raw.length !== expected) throw new PngError('image data does not match its dimensions');
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let i = 0; i < stride; i++) {
      const x = raw[src + i] ?? 0;
      const a = i >= channels ? (pixels[row + i - channels] ?? 0) : 0;
      const b = y > 0 ? (pixels[row - stride + i] ?? 0) : 0;
      const c = y > 0 && i >= channels ? (pixels[row - stride + i - channels] ?? 0) : 0;
      let v: number;
      if (filter === 0) v = x;
      else if (filter === 1) v = x + a;
      else if (filter === 2) v = x + b;
      else if (filter === 3) v = x + ((a + b) >> 1);
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      } else throw new PngError('bad row filter');
      pixels[row + i] = v & 0xff;
    }
  }
  const rgba = (px: number, py: number): [number, number, number, number] => {
    const o = py * stride + px * channels;
    const g = (k: number): number => pixels[o + k] ?? 0;
    switch (header.type) {
      case 0:
        return [g(0), g(0), g(0), 255];
      case 2:
        return [g(0), g(1), g(2), 255];
      case 3: {
        const i = g(0);
        return [palette?.[i * 3] ?? 0, palette?.[i * 3 + 1] ?? 0, palette?.[i * 3 + 2] ?? 0, alpha?.[i] ?? 255];
      }
      case 4:
        return [g(0), g(0), g(0), g(1)];
      default:
        return [g(0), g(1), g(2), g(3)];
    }
  };
  return { width, height, rgba };
}

class SizeError extends Error {}

/** A pixel is ink when it is visible (not mostly transparent) and not near-white paper. */
function isInk([r, g, b, a]: [number, number, number, number]): boolean {
  if (a < 64) return false;
  return !(r > 230 && g > 230 && b > 230);
}

/** Checks the signature (base64 PNG, with or without its data-URL prefix). */
export function checkSignatureImage(base64: string): SignatureCheck {
  const text = base64.replace(/^data:image\/png;base64,/, '');
  if (text.length > Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 4)
    return {
      ok: false,
      reason: 'too_large',
      message: `the signature image is larger than ${MAX_SIGNATURE_BYTES} bytes`,
    };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0)
    return { ok: false, reason: 'not_png', message: 'the signature is not base64 data' };
  const png = Buffer.from(text, 'base64');
  if (png.length > MAX_SIGNATURE_BYTES)
    return {
      ok: false,
      reason: 'too_large',
      message: `the signature image is larger than ${MAX_SIGNATURE_BYTES} bytes`,
    };
  if (png.length < 8 || !png.subarray(0, 8).equals(PNG_MAGIC))
    return { ok: false, reason: 'not_png', message: 'the signature is not a PNG image' };
  let image: Decoded;
  try {
    image = decodePng(png);
  } catch (e) {
    if (e instanceof SizeError) {
      return {
        ok: false,
        reason: 'bad_size',
        message: `the signature image is ${e.message}; it must be ${MIN_SIGNATURE_WIDTH}–${MAX_SIGNATURE_SIDE} wide and ${MIN_SIGNATURE_HEIGHT}–${MAX_SIGNATURE_SIDE} high`,
      };
    }
    if (e instanceof PngError)
      return { ok: false, reason: 'unreadable', message: `the signature PNG cannot be read: ${e.message}` };
    throw e;
  }
  const { width, height } = image;
  let ink = 0;
  let left = width;
  let right = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!isInk(image.rgba(x, y))) continue;
      ink++;
      if (x < left) left = x;
      if (x > right) right = x;
    }
  }
  const area = width * height;
  if (ink < Math.max(MIN_INK_PIXELS, area * MIN_INK_SHARE) || right - left + 1 < width * MIN_INK_SPREAD) {
    return { ok: false, reason: 'blank', message: `the signature has too little ink (${ink} of ${area} pixels)` };
  }
  if (ink > area * MAX_INK_SHARE)
    return { ok: false, reason: 'filled', message: `the signature image is mostly filled (${ink} of ${area} pixels)` };
  return { ok: true, width, height, ink };
}
