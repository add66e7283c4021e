import { describe, expect, it } from 'vitest';
import type { InboxFields } from '@preload/contract';
import { changedFields, toFields, toForm, validate } from '@renderer/src/features/inbox/inbox-form';

const saved: InboxFields = {
  name: 'CBCT JUAN CARLOS MUÑOZ 2026-03-02',
  patient_name: 'JUAN CARLOS MUÑOZ',
  patient_id: '12345678Z',
  birth_date: '1980-01-31',
  reason: '',
  exam_type: 'cbct',
  expiration_days: null,
  share_to: '',
  share_locale: 'es',
};

describe('the inbox form', () => {
  it('round-trips the prefilled fields unchanged', () => {
    expect(toFields(toForm(saved))).toEqual(saved);
    expect(changedFields(toForm(saved), saved)).toEqual({});
  });

  it('sends only the fields staff changed, trimmed', () => {
    const form = { ...toForm(saved), name: '  Control — Ñúñez  ', expiration_days: 30 };
    expect(changedFields(form, saved)).toEqual({ name: 'Control — Ñúñez', expiration_days: 30 });
  });

  it('turns empty birth date and expiration into null', () => {
    const form = { ...toForm(saved), birth_date: '', expiration_days: '' };
    expect(toFields(form)).toMatchObject({ birth_date: null, expiration_days: null });
  });

  it('names each problem: empty name, long ID, bad date, bad expiration', () => {
    expect(validate(toForm(saved))).toEqual({});
    expect(validate({ ...toForm(saved), name: '   ' })).toEqual({ name: 'name_required' });
    expect(validate({ ...toForm(saved), name: 'x'.repeat(201) })).toEqual({ name: 'name_too_long' });
    expect(validate({ ...toForm(saved), patient_id: '1'.repeat(65) })).toEqual({ patient_id: 'patient_id_too_long' });
    expect(validate({ ...toForm(saved), birth_date: '31/01/1980' })).toEqual({ birth_date: 'birth_date_invalid' });
    expect(validate({ ...toForm(saved), birth_date: '1980-02-30' })).toEqual({ birth_date: 'birth_date_invalid' });
    expect(validate({ ...toForm(saved), birth_date: '2024-02-29' })).toEqual({});
    expect(validate({ ...toForm(saved), expiration_days: 0 })).toEqual({ expiration_days: 'expiration_invalid' });
    expect(validate({ ...toForm(saved), expiration_days: '2.5' })).toEqual({ expiration_days: 'expiration_invalid' });
  });
});
