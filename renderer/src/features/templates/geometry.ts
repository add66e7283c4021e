// The slot editor's geometry, free of React and the DOM so it can be tested on its own. Every
// coordinate is a fraction of the page (0..1, as the service stores it), rounded to 4 decimals so
// that what is saved reads back identical.

export type Rect = { x: number; y: number; w: number; h: number };
export type Point = { x: number; y: number };

/** The smallest slot: 2 % of the page each way, still big enough to grab with the mouse. */
export const MIN_SIZE = 0.02;
/** One arrow key press: 1 % of the page. */
export const STEP = 0.01;
/** One arrow key press with Ctrl (or ⌘): 0.1 % of the page, for fine placement. */
export const FINE_STEP = 0.001;

const DECIMALS = 10_000;

/** Rounds to 4 decimals (0.01 % of the page): finer than any printer, and free of binary noise. */
export const round = (n: number): number => Math.round(n * DECIMALS) / DECIMALS;

const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));

/** A rectangle brought within the page: at least MIN_SIZE, at most the page, never past an edge. */
export function clampRect(r: Rect): Rect {
  const w = round(clamp(Number.isFinite(r.w) ? r.w : MIN_SIZE, MIN_SIZE, 1));
  const h = round(clamp(Number.isFinite(r.h) ? r.h : MIN_SIZE, MIN_SIZE, 1));
  const x = round(clamp(Number.isFinite(r.x) ? r.x : 0, 0, round(1 - w)));
  const y = round(clamp(Number.isFinite(r.y) ? r.y : 0, 0, round(1 - h)));
  return { x, y, w, h };
}

/** Moves a rectangle; it stops at the page's edges keeping its size. */
export function moveRect(r: Rect, dx: number, dy: number): Rect {
  return clampRect({ x: r.x + dx, y: r.y + dy, w: r.w, h: r.h });
}

/** Resizes from the bottom-right corner; the top-left corner stays, the size stops at the page's edges. */
export function resizeRect(r: Rect, dw: number, dh: number): Rect {
  const x = round(clamp(r.x, 0, 1 - MIN_SIZE));
  const y = round(clamp(r.y, 0, 1 - MIN_SIZE));
  return { x, y, w: round(clamp(r.w + dw, MIN_SIZE, round(1 - x))), h: round(clamp(r.h + dh, MIN_SIZE, round(1 - y))) };
}

/** The rectangle spanned by two points dragged on the page (in any direction), or null when too small to be meant. */
export function rectFromPoints(a: Point, b: Point): Rect | null {
  const x1 = clamp(Math.min(a.x, b.x), 0, 1);
  const y1 = clamp(Math.min(a.y, b.y), 0, 1);
  const x2 = clamp(Math.max(a.x, b.x), 0, 1);
  const y2 = clamp(Math.max(a.y, b.y), 0, 1);
  if (x2 - x1 < MIN_SIZE || y2 - y1 < MIN_SIZE) return null;
  return clampRect({ x: x1, y: y1, w: x2 - x1, h: y2 - y1 });
}

/** A point on the page from a pointer position inside the page's box on screen. */
export function pointOnPage(
  clientX: number,
  clientY: number,
  box: { left: number; top: number; width: number; height: number },
): Point {
  if (box.width <= 0 || box.height <= 0) return { x: 0, y: 0 };
  return { x: clamp((clientX - box.left) / box.width, 0, 1), y: clamp((clientY - box.top) / box.height, 0, 1) };
}

export type KeyChange = { kind: 'move' | 'resize'; dx: number; dy: number };

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/**
 * What an arrow key does to a selected slot: arrows move it, Shift + arrows resize it (right/down
 * grow, left/up shrink), Ctrl or ⌘ makes the step fine. Other keys: null.
 */
export function keyChange(key: string, mods: { shift: boolean; fine: boolean }): KeyChange | null {
  const dir = ARROWS[key];
  if (!dir) return null;
  const step = mods.fine ? FINE_STEP : STEP;
  return { kind: mods.shift ? 'resize' : 'move', dx: dir[0] * step, dy: dir[1] * step };
}

/** Applies a key change to a rectangle. */
export function applyKeyChange(r: Rect, change: KeyChange): Rect {
  return change.kind === 'move' ? moveRect(r, change.dx, change.dy) : resizeRect(r, change.dx, change.dy);
}

/** A fraction as a percentage for people (one decimal at most: 12.5). */
export const percent = (n: number): number => Math.round(n * 1000) / 10;

/** Where a new slot goes: a 40 % × 25 % box, stepped down the page after the ones already there. */
export function newSlotRect(existing: number): Rect {
  const offset = (existing % 8) * 0.05;
  return clampRect({ x: 0.05 + offset, y: 0.05 + offset, w: 0.4, h: 0.25 });
}

/** True when the rectangle lies within the page as the service requires (x + w ≤ 1, y + h ≤ 1, sizes > 0). */
export function withinPage(r: Rect): boolean {
  const eps = 1e-9;
  return r.x >= 0 && r.y >= 0 && r.w > 0 && r.h > 0 && r.x + r.w <= 1 + eps && r.y + r.h <= 1 + eps;
}
