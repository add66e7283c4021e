// PNG files made in tests: a signature-like drawing (dark strokes on a transparent canvas, as the
// patient display's pad writes it), and plain images for what must be refused.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An 8-bit RGBA PNG of `width` × `height` pixels (`rgba`: 4 bytes a pixel, row-major). */
export function encodeRgbaPng(width: number, height: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    // Filter "Sub" on odd rows, none on even ones: the decoder must undo both.
    const filter = y % 2;
    raw[y * (width * 4 + 1)] = filter;
    for (let i = 0; i < width * 4; i++) {
      const v = rgba[y * width * 4 + i] ?? 0;
      const left = filter === 1 && i >= 4 ? (rgba[y * width * 4 + i - 4] ?? 0) : 0;
      raw[y * (width * 4 + 1) + 1 + i] = (v - left) & 0xff;
    }
  }
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([magic, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Every pixel the same colour. */
export function plainPng(width: number, height: number, [r, g, b, a]: [number, number, number, number]): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([r, g, b, a], i * 4);
  return encodeRgbaPng(width, height, rgba);
}

/** A signature-like drawing: a few wavy dark-blue strokes, about 3 px thick, on a transparent canvas. */
export function signaturePng(width = 600, height = 200): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  const dot = (cx: number, cy: number): void => {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const x = Math.round(cx + dx);
        const y = Math.round(cy + dy);
        if (x >= 0 && y >= 0 && x < width && y < height) rgba.set([20, 30, 90, 255], (y * width + x) * 4);
      }
    }
  };
  for (let t = 0; t <= 1; t += 0.0005) {
    dot(width * (0.1 + 0.7 * t), height * (0.5 + 0.25 * Math.sin(t * 14)));
    dot(width * (0.2 + 0.3 * t), height * (0.35 + 0.1 * Math.cos(t * 9)));
  }
  return encodeRgbaPng(width, height, rgba);
}
