import type { RateState } from '../../../preload/contract';

/** The newer of two rate readings (by when the service last reported it). */
export function newerRate(a: RateState | null | undefined, b: RateState | null | undefined): RateState | undefined {
  if (!a) return b ?? undefined;
  if (!b) return a;
  return (b.updated_at ?? '') > (a.updated_at ?? '') ? b : a;
}
