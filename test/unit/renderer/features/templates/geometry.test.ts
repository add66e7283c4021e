// The slot editor's geometry: every slot stays on the page (0..1) however it is moved, resized or
// drawn, and the keyboard moves it in the steps the screen promises.
import { describe, expect, it } from 'vitest';
import {
  applyKeyChange,
  clampRect,
  FINE_STEP,
  keyChange,
  MIN_SIZE,
  moveRect,
  newSlotRect,
  pointOnPage,
  rectFromPoints,
  resizeRect,
  round,
  STEP,
  withinPage,
} from '@renderer/src/features/templates/geometry';

const slot = { x: 0.1, y: 0.2, w: 0.3, h: 0.25 };

describe('clamping to the page', () => {
  it('pulls a rectangle that sticks out back inside, keeping its size', () => {
    expect(clampRect({ x: 0.9, y: -0.2, w: 0.3, h: 0.25 })).toEqual({ x: 0.7, y: 0, w: 0.3, h: 0.25 });
  });

  it('shrinks a rectangle larger than the page to the page and grows a tiny one to the minimum', () => {
    expect(clampRect({ x: -1, y: -1, w: 3, h: 2 })).toEqual({ x: 0, y: 0, w: 1, h: 1 });
    expect(clampRect({ x: 0.5, y: 0.5, w: 0, h: -1 })).toEqual({ x: 0.5, y: 0.5, w: MIN_SIZE, h: MIN_SIZE });
  });

  it('replaces values that are not numbers', () => {
    const r = clampRect({ x: Number.NaN, y: Number.POSITIVE_INFINITY, w: Number.NaN, h: 0.5 });
    expect(withinPage(r)).toBe(true);
    expect(r).toEqual({ x: 0, y: 0, w: MIN_SIZE, h: 0.5 });
  });

  it('rounds away binary noise so the saved numbers read back the same', () => {
    expect(moveRect({ x: 0.1, y: 0.2, w: 0.3, h: 0.4 }, 0.2, 0.1)).toEqual({ x: 0.3, y: 0.3, w: 0.3, h: 0.4 });
    expect(round(0.1 + 0.2)).toBe(0.3);
  });
});

describe('moving and resizing', () => {
  it('moves within the page and stops at each edge without changing size', () => {
    expect(moveRect(slot, 0.05, -0.05)).toEqual({ x: 0.15, y: 0.15, w: 0.3, h: 0.25 });
    expect(moveRect(slot, 5, 5)).toEqual({ x: 0.7, y: 0.75, w: 0.3, h: 0.25 });
    expect(moveRect(slot, -5, -5)).toEqual({ x: 0, y: 0, w: 0.3, h: 0.25 });
  });

  it('resizes from the bottom-right corner, never below the minimum nor past the page', () => {
    expect(resizeRect(slot, 0.1, 0.05)).toEqual({ x: 0.1, y: 0.2, w: 0.4, h: 0.3 });
    expect(resizeRect(slot, 5, 5)).toEqual({ x: 0.1, y: 0.2, w: 0.9, h: 0.8 });
    expect(resizeRect(slot, -5, -5)).toEqual({ x: 0.1, y: 0.2, w: MIN_SIZE, h: MIN_SIZE });
  });

  it('keeps every result within 0..1 over many random moves and resizes', () => {
    let r = { ...slot };
    let seed = 7;
    const rnd = (): number => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    for (let i = 0; i < 2000; i++) {
      r = i % 2 === 0 ? moveRect(r, rnd(), rnd()) : resizeRect(r, rnd(), rnd());
      expect(withinPage(r), JSON.stringify(r)).toBe(true);
      for (const v of [r.x, r.y, r.w, r.h]) expect(v).toBeGreaterThanOrEqual(0);
      expect(r.w).toBeGreaterThanOrEqual(MIN_SIZE);
      expect(r.h).toBeGreaterThanOrEqual(MIN_SIZE);
    }
  });
});

describe('drawing with the mouse', () => {
  it('spans the two points dragged in any direction, clipped to the page', () => {
    expect(rectFromPoints({ x: 0.6, y: 0.5 }, { x: 0.2, y: 0.1 })).toEqual({ x: 0.2, y: 0.1, w: 0.4, h: 0.4 });
    expect(rectFromPoints({ x: 0.8, y: 0.8 }, { x: 1.4, y: 1.2 })).toEqual({ x: 0.8, y: 0.8, w: 0.2, h: 0.2 });
  });

  it('ignores a click or a drag too small to be a slot', () => {
    expect(rectFromPoints({ x: 0.5, y: 0.5 }, { x: 0.505, y: 0.7 })).toBeNull();
    expect(rectFromPoints({ x: 0.5, y: 0.5 }, { x: 0.5, y: 0.5 })).toBeNull();
  });

  it('turns a pointer position into a fraction of the page box', () => {
    expect(pointOnPage(150, 300, { left: 100, top: 100, width: 200, height: 400 })).toEqual({ x: 0.25, y: 0.5 });
    expect(pointOnPage(0, 900, { left: 100, top: 100, width: 200, height: 400 })).toEqual({ x: 0, y: 1 });
  });
});

describe('keyboard steps', () => {
  it('arrows move by 1 %, Shift + arrows resize, Ctrl makes the step 0.1 %', () => {
    expect(keyChange('ArrowRight', { shift: false, fine: false })).toEqual({ kind: 'move', dx: STEP, dy: 0 });
    expect(keyChange('ArrowUp', { shift: true, fine: false })).toEqual({ kind: 'resize', dx: 0, dy: -STEP });
    expect(keyChange('ArrowLeft', { shift: false, fine: true })).toEqual({ kind: 'move', dx: -FINE_STEP, dy: 0 });
    expect(keyChange('Enter', { shift: false, fine: false })).toBeNull();
    expect(keyChange('a', { shift: true, fine: false })).toBeNull();
  });

  it('three Right and two Down presses move a slot by exactly 3 % and 2 %', () => {
    let r = slot;
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown']) {
      const change = keyChange(key, { shift: false, fine: false });
      if (change) r = applyKeyChange(r, change);
    }
    expect(r).toEqual({ x: 0.13, y: 0.22, w: 0.3, h: 0.25 });
  });

  it('Shift + Right and Shift + Up grow the width and shrink the height by one step each', () => {
    let r = slot;
    for (const key of ['ArrowRight', 'ArrowUp']) {
      const change = keyChange(key, { shift: true, fine: false });
      if (change) r = applyKeyChange(r, change);
    }
    expect(r).toEqual({ x: 0.1, y: 0.2, w: 0.31, h: 0.24 });
  });

  it('a slot held against the right edge does not move further right', () => {
    const atEdge = { x: 0.7, y: 0, w: 0.3, h: 0.1 };
    const change = keyChange('ArrowRight', { shift: false, fine: false });
    expect(change && applyKeyChange(atEdge, change)).toEqual(atEdge);
  });
});

describe('new slots', () => {
  it('lie within the page however many there are already', () => {
    for (let n = 0; n < 50; n++) expect(withinPage(newSlotRect(n))).toBe(true);
    expect(newSlotRect(1)).not.toEqual(newSlotRect(0));
  });
});
