// The patient's drawn signature is evidence: main checks what it receives for in-person signing,
// whatever the window sent (the pad refuses an empty signature, but a page could send anything). A
// signature must be a real PNG of sane size whose pixels hold enough ink: a fully transparent or an
// all-white image, a solid fill, or something that is not a PNG at all is refused before the service
// is asked to sign.
//
// The PNG is decoded with pngjs (CRCs checked). Before that, its header is read here, so that the
// dimensions are bounded before anything is inflated: pngjs then inflates at most the bytes those
// dimensions need, so a small file cannot expand into a huge buffer. Interlaced PNGs (which pngjs
// inflates without that bound, and which no canvas writes) are refused.
import { PNG } from 'pngjs';

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

class PngError extends Error {}
class SizeError extends Error {}

type Decoded = { width: number; height: number; rgba: Buffer };

/** Decodes `png` to RGBA pixels, its size checked first (see the file comment). Throws PngError or SizeError. */
function decodePng(png: Buffer): Decoded {
  // The IHDR chunk comes first: length 13 at byte 8, its type at 12, then width, height, …, interlace.
  if (png.length < 33 || png.readUInt32BE(8) !== 13 || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new PngError('IHDR is not first');
  }
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (
    width < MIN_SIGNATURE_WIDTH ||
    height < MIN_SIGNATURE_HEIGHT ||
    width > MAX_SIGNATURE_SIDE ||
    height > MAX_SIGNATURE_SIDE
  ) {
    throw new SizeError(`${width}×${height} pixels`);
  }
  if (png[28] !== 0) throw new PngError('interlaced PNG');
  try {
    const image = PNG.sync.read(png, { checkCRC: true });
    return { width: image.width, height: image.height, rgba: image.data };
  } catch (e) {
    throw new PngError(e instanceof Error ? e.message : String(e));
  }
}

/** A pixel is ink when it is visible (not mostly transparent) and not near-white paper. */
function isInk(rgba: Buffer, at: number): boolean {
  if ((rgba[at + 3] ?? 0) < 64) return false;
  return !((rgba[at] ?? 0) > 230 && (rgba[at + 1] ?? 0) > 230 && (rgba[at + 2] ?? 0) > 230);
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
      if (!isInk(image.rgba, (y * width + x) * 4)) continue;
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
