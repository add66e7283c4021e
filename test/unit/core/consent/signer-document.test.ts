import { describe, expect, it } from 'vitest';
import { checkSignerDocument } from '@main/core/consent/signer-document';

describe('the signer document', () => {
  it('accepts a Chilean RUT with its hyphen and right check digit, dotted or not', () => {
    expect(checkSignerDocument('CL', '12.345.678-5')).toEqual({ ok: true, value: '12345678-5' });
    expect(checkSignerDocument('cl', '12345678-5')).toEqual({ ok: true, value: '12345678-5' });
    expect(checkSignerDocument('CL', '9.876.543-3')).toEqual({ ok: true, value: '9876543-3' });
    expect(checkSignerDocument('CL', '11.111.111-1')).toEqual({ ok: true, value: '11111111-1' });
  });

  it('accepts K in either case as a check digit', () => {
    // 10.000.013's módulo-11 check digit is K.
    const k = ['10000013-K', '10000013-k'].map((r) => checkSignerDocument('CL', r));
    expect(k).toEqual([
      { ok: true, value: '10000013-K' },
      { ok: true, value: '10000013-K' },
    ]);
  });

  it('refuses a wrong check digit, a missing hyphen, letters', () => {
    expect(checkSignerDocument('CL', '12.345.678-9')).toEqual({ ok: false, reason: 'invalid_rut' });
    expect(checkSignerDocument('CL', '123456785')).toEqual({ ok: false, reason: 'missing_hyphen' });
    expect(checkSignerDocument('CL', '12.345.678')).toEqual({ ok: false, reason: 'missing_hyphen' });
    expect(checkSignerDocument('CL', 'abc-5')).toEqual({ ok: false, reason: 'invalid_rut' });
    expect(checkSignerDocument('CL', '  ')).toEqual({ ok: false, reason: 'empty' });
  });

  it('takes any document number outside Chile', () => {
    expect(checkSignerDocument('AR', ' 30.123.456 ')).toEqual({ ok: true, value: '30.123.456' });
    expect(checkSignerDocument('PE', '')).toEqual({ ok: false, reason: 'empty' });
  });
});
