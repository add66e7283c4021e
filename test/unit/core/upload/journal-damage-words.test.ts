import { describe, expect, it } from 'vitest';
import { journalDamageFacts, journalDamageWords } from '@main/core/upload/state/journal-damage-words';

// Words a Spanish line must not carry (they would mean a sentence was left in English).
const ENGLISH = /\b(the|was|found|journal|exam\(s\)|service|afresh|going on)\b/i;

describe('the words of a damaged upload journal', () => {
  const torn = journalDamageFacts({ empty: false, lines: [2, 3], total: 9 }, '/data/jobs/j.jsonl');

  it('names the journal, the unreadable lines and what was done, in English', () => {
    expect(journalDamageWords({ ...torn, removed: 'exm_1, exm_2', kept: '' }, 'en')).toBe(
      'The upload journal /data/jobs/j.jsonl was found damaged (line 2, 3 of 9 unreadable). ' +
        'Removed the half-made exam(s) exm_1, exm_2 it left on the service. Uploading the study afresh.',
    );
    expect(journalDamageWords({ ...journalDamageFacts(null, '/x'), ready_exam: 'exm_9' }, 'en')).toBe(
      'An earlier upload journal of this folder was found damaged (moved aside as .damaged). ' +
        'The service already holds exam exm_9 of this study, ready: it is the result, and no second exam is made.',
    );
  });

  it('says the same in Spanish, every case, with the same ids', () => {
    const cases = [
      { ...torn, removed: 'exm_1', kept: '' },
      { ...torn, removed: '', kept: 'exm_4' },
      { ...journalDamageFacts({ empty: true, lines: [], total: 0 }, '/data/jobs/e.jsonl'), removed: '', kept: '' },
      { ...journalDamageFacts(null, '/x'), ready_exam: 'exm_9' },
    ];
    for (const p of cases) {
      const es = journalDamageWords(p, 'es');
      expect(es).not.toMatch(ENGLISH);
      for (const id of ['exm_1', 'exm_4', 'exm_9'])
        expect(es.includes(id)).toBe(journalDamageWords(p, 'en').includes(id));
    }
    expect(journalDamageWords(cases[0] ?? {}, 'es')).toContain('línea 2, 3 de 9 ilegible');
  });
});
