import { describe, expect, it } from 'vitest';
import { shareIntentOf, shareRuleSchema } from '@main/core/settings/share-rule';

describe('share rules', () => {
  it("merge a folder's fixed address with the study's own, once each, in the study's language", () => {
    const rule = shareRuleSchema.parse({ to: ['archivo@clinica.example'], locale: 'es' });
    expect(shareIntentOf(rule, 'dra@dental.example, ARCHIVO@clinica.example', 'en')).toEqual({
      to: ['dra@dental.example', 'ARCHIVO@clinica.example'],
      locale: 'en',
    });
    expect(shareIntentOf(rule, '', 'en')).toEqual({ to: ['archivo@clinica.example'], locale: 'es' });
    expect(shareIntentOf(null, '  ', 'es')).toBeUndefined();
  });

  it('refuse a rule without a valid address', () => {
    expect(shareRuleSchema.safeParse({ to: ['not-an-address'] }).success).toBe(false);
    expect(shareRuleSchema.safeParse({ to: [] }).success).toBe(false);
  });
});
