import { describe, expect, it } from 'vitest';
import { ChangeBatcher } from '@main/core/agent/host/change-batcher';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('ChangeBatcher', () => {
  it('pushes at most once per interval, only the items that changed, each in its latest state', async () => {
    const pushes: { at: number; items: { id: string; n: number }[] }[] = [];
    const b = new ChangeBatcher<{ id: string; n: number }>({
      intervalMs: 100,
      push: (items) => pushes.push({ at: Date.now(), items }),
    });
    // 5000 files' worth of progress events for job a, a few for job b, over ~450 ms.
    const start = Date.now();
    for (let n = 1; n <= 5000; n++) {
      b.mark('a', { id: 'a', n });
      if (n % 1000 === 0) {
        b.mark('b', { id: 'b', n });
        await sleep(90);
      }
    }
    await sleep(150);
    const elapsed = Date.now() - start;
    expect(pushes.length).toBeGreaterThanOrEqual(2);
    expect(pushes.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
    for (let i = 1; i < pushes.length; i++)
      expect((pushes[i]?.at ?? 0) - (pushes[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(95);
    for (const p of pushes) expect(new Set(p.items.map((i) => i.id)).size).toBe(p.items.length);
    expect(pushes.at(-1)?.items.find((i) => i.id === 'a')?.n).toBe(5000);
    b.close();
  });

  it('leaves unchanged items out and pushes nothing when nothing changed', async () => {
    const pushes: string[][] = [];
    const b = new ChangeBatcher<string>({ intervalMs: 30, push: (items) => pushes.push(items) });
    b.mark('a', 'a1');
    b.mark('b', 'b1');
    await sleep(60);
    b.mark('b', 'b2');
    await sleep(60);
    await sleep(60);
    expect(pushes).toEqual([['a1', 'b1'], ['b2']]);
    b.mark('c', 'c1');
    b.close();
    expect(pushes.at(-1)).toEqual(['c1']);
    b.mark('d', 'd1');
    await sleep(60);
    expect(pushes).toHaveLength(3);
  });
});
