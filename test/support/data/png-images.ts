// PNG files made in tests: a signature-like drawing (dark strokes on a transparent canvas, as the
// patient display's pad writes it), and plain images for what must be refused.
import { PNG } from 'pngjs';

/** An 8-bit RGBA PNG of `width` × `height` pixels (`rgba`: 4 bytes a pixel, row-major), written by pngjs. */
export function encodeRgbaPng(width: number, height: number, rgba: Uint8Array): Buffer {
  const png = new PNG({ width, height });
  png.data = Buffer.from(rgba);
  return PNG.sync.write(png, { colorType: 6 });
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
