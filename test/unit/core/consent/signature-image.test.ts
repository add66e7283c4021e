// What main accepts as the patient's drawn signature: a real PNG of sane size with enough ink.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkSignatureImage, MAX_SIGNATURE_BYTES } from '@main/core/consent/signature-image';
import { encodeRgbaPng, plainPng, signaturePng } from '@support/data/png-images';

const b64 = (png: Buffer): string => png.toString('base64');
const reason = (png: Buffer | string): string => {
  const r = checkSignatureImage(typeof png === 'string' ? png : b64(png));
  return r.ok ? 'ok' : r.reason;
};

describe('checkSignatureImage', () => {
  it('accepts a signature-like drawing, with or without its data-URL prefix', () => {
    const png = signaturePng();
    const r = checkSignatureImage(b64(png));
    expect(r).toMatchObject({ ok: true, width: 600, height: 200 });
    expect(r.ok && r.ink).toBeGreaterThan(1000);
    expect(checkSignatureImage(`data:image/png;base64,${b64(png)}`).ok).toBe(true);
    // A pad on a large, dense screen.
    expect(reason(signaturePng(2400, 600))).toBe('ok');
  });

  it('refuses a fully transparent, an all-white, a solid black image as blank or filled', () => {
    expect(reason(plainPng(600, 200, [0, 0, 0, 0]))).toBe('blank');
    expect(reason(plainPng(600, 200, [255, 255, 255, 255]))).toBe('blank');
    expect(reason(plainPng(600, 200, [20, 30, 90, 8]))).toBe('blank');
    expect(reason(plainPng(600, 200, [0, 0, 0, 255]))).toBe('filled');
  });

  it('refuses a dot', () => {
    const rgba = new Uint8Array(600 * 200 * 4);
    for (let y = 98; y < 102; y++) for (let x = 298; x < 302; x++) rgba.set([0, 0, 0, 255], (y * 600 + x) * 4);
    expect(reason(encodeRgbaPng(600, 200, rgba))).toBe('blank');
  });

  it('refuses what is not a PNG', () => {
    expect(reason(Buffer.from('GIF89a not a png at all, just some bytes'))).toBe('not_png');
    expect(reason(Buffer.from('%PDF-1.4\n'))).toBe('not_png');
    expect(reason('not base64 !!')).toBe('not_png');
    expect(reason('')).toBe('not_png');
  });

  it('refuses a broken PNG: bad CRC, cut short, data that does not match the size', () => {
    const png = signaturePng();
    const badCrc = Buffer.from(png);
    badCrc[30] = (badCrc[30] ?? 0) ^ 0xff;
    expect(reason(badCrc)).toBe('unreadable');
    expect(reason(png.subarray(0, png.length - 40))).toBe('unreadable');
    // Claims 600×200 but carries the pixels of a smaller image.
    const small = signaturePng(300, 100);
    const lying = Buffer.from(small);
    lying.writeUInt32BE(600, 16);
    lying.writeUInt32BE(200, 20);
    expect(reason(lying)).toBe('unreadable');
  });

  it('refuses a huge image (dimensions) before inflating it, and a file too large', () => {
    // 20000×20000 declared: refused from its header, nothing is inflated.
    const header = Buffer.alloc(13);
    header.writeUInt32BE(20_000, 0);
    header.writeUInt32BE(20_000, 4);
    header[8] = 8;
    header[9] = 6;
    const png = encodeRgbaPng(600, 200, new Uint8Array(600 * 200 * 4));
    // The IHDR's CRC is right: only the size is wrong.
    const fixed = encodeWithHeader(png, header);
    expect(reason(fixed)).toBe('bad_size');
    expect(reason(plainPng(20, 10, [0, 0, 0, 255]))).toBe('bad_size');
    const big = Buffer.concat([signaturePng(), Buffer.alloc(MAX_SIGNATURE_BYTES)]);
    expect(reason(big)).toBe('too_large');
  });

  it('a decompression bomb (a tiny file that inflates past its size) is refused', () => {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(1000, 0);
    header.writeUInt32BE(1000, 4);
    // 4 MB of pixels at most; the data inflates to 20 MB.
    header[8] = 8;
    header[9] = 6;
    const bomb = deflateSync(Buffer.alloc(20_000_000));
    expect(bomb.length).toBeLessThan(MAX_SIGNATURE_BYTES);
    expect(reason(withChunks(header, bomb))).toBe('unreadable');
  });
});

function crcOf(b: Buffer): number {
  let c = 0xffffffff;
  for (const byte of b) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crcOf(body));
  return Buffer.concat([len, body, crc]);
}

function withChunks(header: Buffer, idat: Buffer): Buffer {
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([magic, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** `png` with its IHDR replaced by `header` (its CRC recomputed). */
function encodeWithHeader(png: Buffer, header: Buffer): Buffer {
  const ihdrEnd = 8 + 12 + 13;
  return Buffer.concat([png.subarray(0, 8), chunk('IHDR', header), png.subarray(ihdrEnd)]);
}
