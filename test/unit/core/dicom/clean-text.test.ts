// Text from files and settings cleaned once where it enters: no control characters, no lone
// surrogates, lengths cut without splitting a character; and what the CLI prints is escaped.
import { describe, expect, it } from 'vitest';
import {
  cleanText,
  escapeForTerminal,
  hasUnsafeText,
  limitText,
  terminalSafeJson,
} from '@main/core/dicom/header/clean-text';

describe('cleanText', () => {
  it('removes C0, DEL and C1 controls and lone surrogates, keeps real text', () => {
    expect(cleanText('MU\u00d1OZ\x1b]0;pwned\x07^JUAN\x1b[2J')).toBe('MUÑOZ]0;pwned^JUAN[2J');
    expect(cleanText('A\u009b31mB\x7fC\0D')).toBe('A31mBCD');
    expect(cleanText('\ud800x\udc00y')).toBe('xy');
    expect(cleanText('emoji 😀 and 山田^太郎')).toBe('emoji 😀 and 山田^太郎');
  });

  it('turns line breaks and tabs into spaces', () => {
    expect(cleanText('a\r\nb\tc')).toBe('a  b c');
  });
});

describe('hasUnsafeText', () => {
  it('spots NUL, ESC and lone surrogates', () => {
    for (const bad of ['a\0b', 'x\x1by', '\ud800', 'z\udc00', 'c1\u0085']) expect(hasUnsafeText(bad)).toBe(true);
    expect(hasUnsafeText('{type} {patient} {date} 😀')).toBe(false);
  });
});

describe('limitText', () => {
  it('cuts to the limit without splitting a surrogate pair and says so', () => {
    expect(limitText('abc', 5)).toEqual({ text: 'abc', cut: false });
    expect(limitText('abcdef', 4)).toEqual({ text: 'abcd', cut: true });
    expect(limitText('ab😀', 3)).toEqual({ text: 'ab', cut: true });
  });
});

describe('terminal output', () => {
  it('shows controls as escapes instead of sending them', () => {
    expect(escapeForTerminal('a\x1b[2Jb\u009bc\ud800')).toBe('a\\x1b[2Jb\\x9bc\\ud800');
  });

  it('JSON without raw C1 controls or lone surrogates that still parses to the same value', () => {
    const value = { path: '/x/\u009b2J\ud800/\x1b' };
    const text = terminalSafeJson(value);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(text).not.toMatch(/[\ud800-\udfff]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
