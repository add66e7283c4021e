import type { PointGroup } from 'signature_pad';

/** A signature must be at least this long (CSS pixels of ink) and this wide: a dot or a tick is not one. */
export const MIN_SIGNATURE_LENGTH = 150;
export const MIN_SIGNATURE_WIDTH = 60;

/** Total ink length and width of the strokes, in CSS pixels. */
export function signatureExtent(groups: PointGroup[]): { length: number; width: number } {
  let length = 0;
  let minX = Infinity;
  let maxX = -Infinity;
  for (const g of groups) {
    for (let i = 0; i < g.points.length; i++) {
      const p = g.points[i];
      if (!p) continue;
      minX = Math.min(minX, p.x);
      maxX = Math.max(maxX, p.x);
      const q = g.points[i - 1];
      if (q) length += Math.hypot(p.x - q.x, p.y - q.y);
    }
  }
  return { length, width: maxX > minX ? maxX - minX : 0 };
}
