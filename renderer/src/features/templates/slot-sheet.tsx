import { useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorSlot } from './editor-state';
import type { Point, Rect } from './geometry';
import { applyKeyChange, keyChange, moveRect, percent, pointOnPage, rectFromPoints, resizeRect } from './geometry';

type Drag = { mode: 'draw' | 'move' | 'resize'; key: string | null; start: Point; origin: Rect; current: Rect | null };

type Props = {
  slots: EditorSlot[];
  selected: string | null;
  /** Accessible name of the page (e.g. "Page 1 of 2"). */
  pageLabel: string;
  /** Id of the text that explains the mouse and keyboard controls. */
  helpId: string;
  onSelect: (key: string | null) => void;
  onChange: (key: string, rect: Rect, how: 'keyboard' | 'mouse') => void;
  onDraw: (rect: Rect) => void;
};

const pct = (n: number): string => `${n * 100}%`;

/** Where a rectangle sits on the sheet, as CSS percentages (the sheet scales with the window). */
export const placement = (r: Rect) => ({ left: pct(r.x), top: pct(r.y), width: pct(r.w), height: pct(r.h) });

/**
 * One A4 page with its slots. The mouse draws a slot on empty paper, drags a slot to move it and its
 * corner to resize it; a focused slot moves with the arrow keys and resizes with Shift + arrows.
 */
export function SlotSheet({ slots, selected, pageLabel, helpId, onSelect, onChange, onDraw }: Props) {
  const { t } = useTranslation();
  const sheet = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);

  const pointOf = (e: PointerEvent): Point => {
    const box = sheet.current?.getBoundingClientRect();
    return box ? pointOnPage(e.clientX, e.clientY, box) : { x: 0, y: 0 };
  };

  const begin = (e: PointerEvent, mode: Drag['mode'], slot: EditorSlot | null): void => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    sheet.current?.setPointerCapture(e.pointerId);
    const start = pointOf(e);
    if (slot) onSelect(slot.key);
    setDrag({
      mode,
      key: slot?.key ?? null,
      start,
      origin: slot ?? { x: start.x, y: start.y, w: 0, h: 0 },
      current: null,
    });
  };

  const move = (e: PointerEvent): void => {
    if (!drag) return;
    const p = pointOf(e);
    const dx = p.x - drag.start.x;
    const dy = p.y - drag.start.y;
    const current =
      drag.mode === 'draw'
        ? rectFromPoints(drag.start, p)
        : drag.mode === 'move'
          ? moveRect(drag.origin, dx, dy)
          : resizeRect(drag.origin, dx, dy);
    setDrag({ ...drag, current });
  };

  const end = (): void => {
    if (!drag) return;
    if (drag.current) {
      if (drag.mode === 'draw') onDraw(drag.current);
      else if (drag.key) onChange(drag.key, drag.current, 'mouse');
    } else if (drag.mode === 'draw') {
      onSelect(null);
    }
    setDrag(null);
  };

  const onKey =
    (slot: EditorSlot) =>
    (e: KeyboardEvent): void => {
      const change = keyChange(e.key, { shift: e.shiftKey, fine: e.ctrlKey || e.metaKey });
      if (!change) return;
      e.preventDefault();
      onChange(slot.key, applyKeyChange(slot, change), 'keyboard');
    };

  return (
    <div
      ref={sheet}
      className="tpl-sheet"
      role="group"
      aria-label={pageLabel}
      aria-describedby={helpId}
      data-testid="template-sheet"
      onPointerDown={(e) => begin(e, 'draw', null)}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={() => setDrag(null)}
    >
      {slots.map((s, i) => {
        const rect = drag?.key === s.key && drag.current ? drag.current : s;
        const name = s.label.trim() || t('templates.editor.slotN', { n: i + 1 });
        return (
          <button
            key={s.key}
            type="button"
            className="tpl-slot"
            aria-pressed={selected === s.key}
            aria-label={t('templates.editor.slotAria', {
              name,
              x: percent(rect.x),
              y: percent(rect.y),
              w: percent(rect.w),
              h: percent(rect.h),
            })}
            aria-describedby={helpId}
            style={placement(rect)}
            data-testid="template-slot"
            data-x={rect.x}
            data-y={rect.y}
            data-w={rect.w}
            data-h={rect.h}
            onFocus={() => onSelect(s.key)}
            onPointerDown={(e) => begin(e, 'move', s)}
            onKeyDown={onKey(s)}
          >
            <span className="tpl-slot-label">{name}</span>
            <span
              className="tpl-handle"
              aria-hidden="true"
              onPointerDown={(e) => begin(e, 'resize', s)}
              data-testid="template-slot-handle"
            />
          </button>
        );
      })}
      {drag?.mode === 'draw' && drag.current && (
        <div className="tpl-drawing" style={placement(drag.current)} aria-hidden="true" />
      )}
    </div>
  );
}

/** A small picture of a page's slots (decorative in the list; with labels where it is shown large). */
export function MiniSheet({
  slots,
  labelled = false,
}: {
  slots: (Rect & { label?: string | null })[];
  labelled?: boolean;
}) {
  return (
    <div className="tpl-mini" aria-hidden={labelled ? undefined : 'true'}>
      {slots.map((s, i) => (
        <div key={i} className="tpl-mini-slot" style={placement(s)}>
          {labelled && s.label && <span className="tpl-mini-label">{s.label}</span>}
        </div>
      ))}
    </div>
  );
}
