import { describe, expect, it } from 'vitest';
import { isSandboxKey, keyKindOf } from '@main/core/api/http/sandbox';

describe('sandbox keys', () => {
  it('recognises the cbct_test_ prefix and nothing else', () => {
    expect(isSandboxKey('cbct_test_0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isSandboxKey('cbct_live_0123456789abcdef0123456789abcdef')).toBe(false);
    expect(isSandboxKey('CBCT_TEST_x')).toBe(false);
    expect(isSandboxKey('xcbct_test_')).toBe(false);
    expect(isSandboxKey('')).toBe(false);
  });
  it('tells the kind of a key', () => {
    expect(keyKindOf('cbct_test_1')).toBe('sandbox');
    expect(keyKindOf('cbct_live_1')).toBe('live');
  });
});
