import { useVirtualizer } from '@tanstack/react-virtual';
import type { CSSProperties, ReactNode } from 'react';
import { useEffect, useRef } from 'react';

type Props<T> = {
  items: readonly T[];
  keyOf: (item: T) => string;
  /** Each row's height; with `measure`, the first guess until a row has measured itself. */
  rowHeight: number;
  /** Rows of different heights (an upload with an error is taller): each row measures itself. */
  measure?: boolean;
  overscan: number;
  height: number | string;
  /** The scrolling box: its test id, role and name; `focusable` lets a script move the focus into it. */
  box: { testId: string; role: 'region' | 'group'; label: string; focusable?: boolean; style?: CSSProperties };
  /** The rows are the items of a list (`ul`/`li`), read as such by a screen reader. */
  list?: boolean;
  rowStyle?: CSSProperties;
  /** Told the index of the last row drawn, as the list scrolls (to fetch more near the end). */
  onLastIndex?: (index: number) => void;
  children: (item: T, index: number) => ReactNode;
};

const listReset: CSSProperties = { margin: 0, padding: 0, listStyle: 'none' };

/**
 * A long list in a scrolling box that draws only the rows in view (and a few around them), so
 * thousands of exams, jobs or series stay smooth.
 */
export function VirtualList<T>(p: Props<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { items, keyOf, onLastIndex } = p;
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => p.rowHeight,
    overscan: p.overscan,
    getItemKey: (i) => {
      const item = items[i];
      return item === undefined ? i : keyOf(item);
    },
  });
  const rows = virtualizer.getVirtualItems();
  const last = rows.at(-1)?.index ?? -1;
  useEffect(() => onLastIndex?.(last), [onLastIndex, last]);
  const Rows = p.list ? 'ul' : 'div';
  const Row = p.list ? 'li' : 'div';
  return (
    <div
      ref={scrollRef}
      style={{ height: p.height, overflowY: 'auto', ...p.box.style }}
      data-testid={p.box.testId}
      role={p.box.role}
      aria-label={p.box.label}
      tabIndex={p.box.focusable ? -1 : undefined}
    >
      <Rows style={{ height: virtualizer.getTotalSize(), position: 'relative', ...(p.list ? listReset : {}) }}>
        {rows.map((row) => {
          const item = items[row.index];
          if (item === undefined) return null;
          return (
            <Row
              key={row.key}
              data-index={row.index}
              ref={p.measure ? virtualizer.measureElement : undefined}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: p.measure ? undefined : p.rowHeight,
                transform: `translateY(${row.start}px)`,
                ...p.rowStyle,
              }}
            >
              {p.children(item, row.index)}
            </Row>
          );
        })}
      </Rows>
    </div>
  );
}
