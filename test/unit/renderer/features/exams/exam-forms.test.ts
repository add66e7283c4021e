// The exam workspace's form logic: the list filter, the recipients of a share, the PATCH of an edit.
import { describe, expect, it } from 'vitest';
import type { ExamView } from '@preload/contract';
import { changedFields, formOf } from '@renderer/src/features/exams/exam-edit';
import { matchesFilter } from '@renderer/src/features/exams/exam-filter';
import { parseEmails } from '@renderer/src/features/exams/emails';

const exam = (over: Partial<ExamView> = {}): ExamView => ({
  id: 'exm_1',
  name: 'CBCT maxilar',
  exam_type: 'cbct',
  status: 'ready',
  patient_name: 'JOSÉ IGNACIO NÚÑEZ',
  patient_id: '12.345.678-5',
  birth_date: '1980-01-31',
  reason: null,
  expiration_days: null,
  expires_at: null,
  radiograph_subtype: null,
  file_count: 4,
  storage_bytes: 100,
  counters: null,
  extra_series: 0,
  viewer_url: null,
  share_url: null,
  share_password: null,
  public_page_pin: null,
  created_at: null,
  ...over,
});

describe('the Exams filter', () => {
  it('finds by patient name without accents or case, by ID without dots or dash, by exam name, every word', () => {
    expect(matchesFilter(exam(), 'nunez')).toBe(true);
    expect(matchesFilter(exam(), 'jose núñez')).toBe(true);
    expect(matchesFilter(exam(), '123456785')).toBe(true);
    expect(matchesFilter(exam(), '12.345.678-5')).toBe(true);
    expect(matchesFilter(exam(), 'maxilar')).toBe(true);
    expect(matchesFilter(exam(), 'maxilar rojas')).toBe(false);
    expect(matchesFilter(exam(), '   ')).toBe(true);
  });
});

describe('share recipients', () => {
  it('splits on commas, semicolons and spaces and names the addresses that are not e-mail', () => {
    expect(parseEmails('a@x.cl, b@y.cl; c@z.cl')).toEqual({ ok: ['a@x.cl', 'b@y.cl', 'c@z.cl'], bad: [] });
    expect(parseEmails('a@x.cl, juan, b@')).toEqual({ ok: ['a@x.cl'], bad: ['juan', 'b@'] });
    expect(parseEmails('')).toEqual({ ok: [], bad: [] });
  });
});

describe('the edit form', () => {
  it('sends only the fields that changed', () => {
    const e = exam();
    expect(changedFields(e, formOf(e))).toEqual({});
    expect(changedFields(e, { ...formOf(e), reason: 'Control', name: ' CBCT maxilar ' })).toEqual({
      reason: 'Control',
    });
    expect(changedFields(e, { ...formOf(e), expiration_days: 30 })).toEqual({ expiration_days: 30 });
    expect(
      changedFields(exam({ expiration_days: 30 }), { ...formOf(exam({ expiration_days: 30 })), expiration_days: '' }),
    ).toEqual({ expiration_days: null });
  });

  it('sends the radiograph type only for a radiograph', () => {
    const cbct = exam();
    expect(changedFields(cbct, { ...formOf(cbct), radiograph_subtype: 'panoramica' })).toEqual({});
    const rx = exam({ exam_type: 'radiografia', radiograph_subtype: 'periapical' });
    expect(changedFields(rx, { ...formOf(rx), radiograph_subtype: 'panoramica' })).toEqual({
      radiograph_subtype: 'panoramica',
    });
  });
});
