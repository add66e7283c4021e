import { describe, expect, it } from 'vitest';
import { decodeText } from '@main/core/dicom/header/charset';

const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));

describe('decodeText', () => {
  it('decodes the declared single-byte and UTF-8 sets', () => {
    expect(decodeText('ISO_IR 100', latin1('MUÑOZ^JUAN'), 'PN')).toEqual({ text: 'MUÑOZ^JUAN', fallback: false });
    expect(decodeText('ISO_IR 192', utf8('PÉREZ^MARÍA'), 'PN')).toEqual({ text: 'PÉREZ^MARÍA', fallback: false });
    expect(decodeText('ISO_IR 148', latin1('\xdeEN'), 'PN')).toEqual({ text: 'ŞEN', fallback: false });
    expect(decodeText('GB18030', new Uint8Array([0xcd, 0xf5]), 'PN')).toEqual({ text: '王', fallback: false });
  });

  it('passes plain ASCII through whatever the label says', () => {
    expect(decodeText('NOT A CHARSET', latin1('SMITH^JOHN'), 'PN')).toEqual({ text: 'SMITH^JOHN', fallback: false });
  });

  it('falls back to Latin-1 for an unknown term or a broken escape sequence, and says so', () => {
    expect(decodeText('ISO_IR 999', latin1('NÚÑEZ'), 'PN')).toEqual({ text: 'NÚÑEZ', fallback: true });
    expect(decodeText('ISO 2022 IR 87', new Uint8Array([0x41, 0x1b, 0x24, 0x42, 0xff, 0x1b, 0x1b]), 'PN')).toEqual({
      text: 'A\x1b$B\xff\x1b\x1b',
      fallback: true,
    });
  });

  it('gives the same answer from its cache as on the first call', () => {
    const first = decodeText('ISO_IR 192', latin1('PEÑA'), 'LO');
    expect(decodeText('ISO_IR 192', latin1('PEÑA'), 'LO')).toEqual(first);
    expect(first).toEqual({ text: 'PEÑA', fallback: true });
  });
});
