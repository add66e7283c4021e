// definedFields copies the named fields that are set, and leaves the others absent (not undefined),
// as the core's optional fields (exactOptionalPropertyTypes) require.
import { describe, expect, it } from 'vitest';
import { definedFields } from '@main/core/defined';

describe('definedFields', () => {
  it('copies the named fields that are set, falsy ones included, and nothing else', () => {
    const source: { a?: string; b?: number; c?: boolean | undefined; d: string } = {
      a: 'x',
      b: 0,
      c: undefined,
      d: 'not named',
    };
    const out = definedFields(source, ['a', 'b', 'c']);
    expect(out).toEqual({ a: 'x', b: 0 });
    expect('c' in out).toBe(false);
    expect('d' in out).toBe(false);
  });
});
