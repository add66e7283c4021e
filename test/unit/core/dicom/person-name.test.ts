import { describe, expect, it } from 'vitest';
import { parsePersonName, prefillName } from '@main/core/dicom';

describe('prefillName', () => {
  const cases: [string, string, string][] = [
    ['given and family', 'MUÑOZ^JUAN CARLOS', 'JUAN CARLOS MUÑOZ'],
    ['given, middle and family', 'Smith^John^Quincy', 'John Quincy Smith'],
    ['prefix and suffix are left out', 'Pérez^María^José^Dra.^PhD', 'María José Pérez'],
    ['family only', 'GARCÍA', 'GARCÍA'],
    ['given only', '^Ana', 'Ana'],
    ['empty components are dropped', 'López^^Luis', 'Luis López'],
    ['padding and repeated spaces collapse to single spaces', '  ROJAS ^  ANA   MARÍA \0', 'ANA MARÍA ROJAS'],
    ['case is kept as written', 'mcDonald^aLiCe', 'aLiCe mcDonald'],
    [
      'the alphabetic group wins over ideographic and phonetic ones',
      'Yamada^Tarou=山田^太郎=やまだ^たろう',
      'Tarou Yamada',
    ],
    ['an empty alphabetic group falls back to the ideographic one', '=山田^太郎=やまだ^たろう', '太郎 山田'],
    ['empty alphabetic and ideographic groups fall back to the phonetic one', '==やまだ^たろう', 'たろう やまだ'],
    ['a multi-valued PN keeps the first person', 'DOE^JANE\\ROE^RICHARD', 'JANE DOE'],
    ['nothing at all', '', ''],
    ['only delimiters', '^^^^=^', ''],
  ];
  for (const [what, raw, expected] of cases) {
    it(`${what}: ${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
      expect(prefillName(raw)).toBe(expected);
    });
  }
});

describe('parsePersonName', () => {
  it('splits all five components of each group', () => {
    expect(parsePersonName('Adams^John Robert Quincy^^Rev.^B.A. M.Div.')).toEqual([
      { family: 'Adams', given: 'John Robert Quincy', middle: '', prefix: 'Rev.', suffix: 'B.A. M.Div.' },
    ]);
    expect(parsePersonName('Wang^XiaoDong=王^小東=')).toHaveLength(3);
  });
});
