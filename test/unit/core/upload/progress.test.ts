import { describe, expect, it } from 'vitest';
import { ProgressTracker } from '@main/core/upload/state/progress';

describe('upload progress totals', () => {
  it('counts in-flight bytes, rolls back a failed attempt and moves finished files to done', () => {
    const p = new ProgressTracker(1000, 2);
    p.onBytes(300);
    expect(p.totals()).toMatchObject({ bytesSent: 300, filesDone: 0 });
    p.onBytes(-300);
    expect(p.totals().bytesSent).toBe(0);
    p.onBytes(400);
    p.onTransferDone(400, 1);
    expect(p.totals()).toMatchObject({ bytesSent: 400, filesDone: 1, filesTotal: 2 });
    expect(p.wireBytes).toBe(700);
  });

  it('derives a smoothed rate and the time left from samples', () => {
    const p = new ProgressTracker(10_000, 1);
    p.sample(0);
    p.onBytes(1000);
    p.sample(1000);
    expect(p.totals().rate).toBe(1000);
    expect(p.totals().etaSeconds).toBe(9);
    p.sample(2000); // nothing moved: the rate decays, it does not drop to zero at once
    expect(p.totals().rate).toBeGreaterThan(0);
    expect(p.totals().rate).toBeLessThan(1000);
  });

  it('reports no ETA before anything moved', () => {
    expect(new ProgressTracker(10, 1).totals().etaSeconds).toBeNull();
  });
});
