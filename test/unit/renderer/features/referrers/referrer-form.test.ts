// The referrer form: an e-mail is checked before sending, and an edit sends only what changed.
import { describe, expect, it } from 'vitest';
import {
  changedFields,
  checkReferrer,
  emptyReferrer,
  matchesSearch,
} from '@renderer/src/features/referrers/referrer-form';

describe('checking a referrer before sending', () => {
  it('needs a name and accepts the other fields empty', () => {
    expect(checkReferrer(emptyReferrer)).toEqual({ name: 'name_required' });
    expect(checkReferrer({ ...emptyReferrer, name: '  Dra. Ana Pérez ' })).toEqual({});
  });

  it('refuses e-mail addresses that cannot receive mail and accepts real ones', () => {
    for (const bad of [
      'ana',
      'ana@',
      'ana@clinica',
      '@clinica.cl',
      'ana perez@clinica.cl',
      'ana@@clinica.cl',
      'ana@clinica..cl',
    ]) {
      expect(checkReferrer({ ...emptyReferrer, name: 'A', email: bad }).email, bad).toBe('email_invalid');
    }
    for (const good of ['ana@clinica.cl', 'ana.perez+rx@dental.example.com', ' ANA@CLINICA.CL ']) {
      expect(checkReferrer({ ...emptyReferrer, name: 'A', email: good }).email, good).toBeUndefined();
    }
  });

  it('accepts phone numbers as people write them and refuses letters', () => {
    expect(checkReferrer({ ...emptyReferrer, name: 'A', phone: '+56 9 1234 5678' }).phone).toBeUndefined();
    expect(checkReferrer({ ...emptyReferrer, name: 'A', phone: '(2) 2345-6789' }).phone).toBeUndefined();
    expect(checkReferrer({ ...emptyReferrer, name: 'A', phone: 'llamar' }).phone).toBe('phone_invalid');
  });
});

describe('what an edit sends', () => {
  const original = { name: 'Dra. Ana Pérez', email: 'ana@clinica.cl', phone: '', specialty: 'Ortodoncia' };

  it('only the fields that changed, trimmed', () => {
    expect(changedFields(original, { ...original, phone: ' +56 9 1234 5678 ' })).toEqual({ phone: '+56 9 1234 5678' });
    expect(changedFields(original, { ...original, name: 'Dra. Ana Pérez ' })).toEqual({});
  });

  it('a cleared field as an empty text (the core sends it as null)', () => {
    expect(changedFields(original, { ...original, specialty: '' })).toEqual({ specialty: '' });
  });
});

describe('searching the list', () => {
  const r = { id: 'rfr_1', name: 'Dr. Álvaro Muñoz', email: 'alvaro@sonrisa.cl', phone: null, specialty: 'Endodoncia' };
  it('matches every word, ignoring case and accents', () => {
    expect(matchesSearch(r, 'alvaro munoz')).toBe(true);
    expect(matchesSearch(r, 'ENDO sonrisa')).toBe(true);
    expect(matchesSearch(r, 'alvaro ortodoncia')).toBe(false);
    expect(matchesSearch(r, '   ')).toBe(true);
  });
});
