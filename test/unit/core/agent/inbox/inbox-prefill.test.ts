import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NAME_TEMPLATE,
  defaultExamName,
  prefillFields,
  renderExamName,
  studyExamFields,
} from '@main/core/agent/inbox/inbox-prefill';
import type { Study } from '@main/core/dicom';

const values = {
  patient: 'JUAN CARLOS MUÑOZ',
  patient_id: '12345678Z',
  type: 'radiografia' as const,
  date: '2026-03-02',
  description: 'Panorámica',
  modality: 'PX',
};

describe('renderExamName', () => {
  it('fills the template in the app language, accents and ñ intact', () => {
    expect(renderExamName(DEFAULT_NAME_TEMPLATE, values, 'es')).toBe('Radiografía JUAN CARLOS MUÑOZ 2026-03-02');
    expect(renderExamName(DEFAULT_NAME_TEMPLATE, values, 'en')).toBe('Radiograph JUAN CARLOS MUÑOZ 2026-03-02');
    expect(renderExamName('{id} – {description} ({modality})', values, 'es')).toBe('12345678Z – Panorámica (PX)');
  });

  it('leaves no dangling separators or double spaces when values are empty, and keeps unknown placeholders', () => {
    expect(renderExamName('{patient} - {type} - {date}', { ...values, patient: '', date: null }, 'es')).toBe(
      'Radiografía',
    );
    expect(renderExamName('{type}  {patient}', values, 'es')).toBe('Radiografía JUAN CARLOS MUÑOZ');
    expect(renderExamName('{patient} {clinic}', values, 'es')).toBe('JUAN CARLOS MUÑOZ {clinic}');
  });

  it('falls back to type and date for an empty result and caps the length at 200', () => {
    expect(renderExamName('{patient}', { ...values, patient: '' }, 'en')).toBe('Radiograph 2026-03-02');
    expect(renderExamName('{patient}', { ...values, patient: 'Ñ'.repeat(300) }, 'es')).toHaveLength(200);
  });
});

const study: Study = {
  study_uid: '1.2.3',
  patient_name: 'JUAN CARLOS MUÑOZ',
  patient_name_raw: 'MUÑOZ^JUAN CARLOS',
  patient_id: '12345678Z',
  birth_date: '1980-01-31',
  study_date: '2026-03-02',
  modality: 'CT',
  description: 'CBCT maxilar',
  suggested_exam_type: 'cbct',
  series: [],
  files: 3,
  bytes: 3000,
  root: '/exports/juan',
  character_set: 'ISO_IR 192',
  manufacturer: '',
  model: '',
  warnings: [],
};

describe('defaultExamName (the name of an exam with no template: scanbridge upload)', () => {
  it('is the description and the study date, else the modality, else the exam type', () => {
    expect(defaultExamName(study)).toBe('CBCT maxilar 2026-03-02');
    expect(defaultExamName({ ...study, description: ' ' })).toBe('CT 2026-03-02');
    expect(defaultExamName({ ...study, description: '', modality: '', study_date: null })).toBe('CBCT');
  });
});

describe('studyExamFields (the one way from a study to exam fields)', () => {
  it('takes the type from the folder, or the study for from_dicom, and names with the template or without one', () => {
    expect(studyExamFields(study, 'from_dicom', null)).toEqual({
      name: 'CBCT maxilar 2026-03-02',
      exam_type: 'cbct',
      patient_name: 'JUAN CARLOS MUÑOZ',
      patient_id: '12345678Z',
      birth_date: '1980-01-31',
    });
    expect(studyExamFields(study, 'atm', { template: DEFAULT_NAME_TEMPLATE, language: 'en' })).toMatchObject({
      name: 'TMJ JUAN CARLOS MUÑOZ 2026-03-02',
      exam_type: 'atm',
    });
  });

  it('leaves the patient uncut; the inbox cuts its proposal to the service lengths', () => {
    const long = { ...study, patient_name: 'Ñ'.repeat(300), patient_id: '9'.repeat(100) };
    expect(studyExamFields(long, 'from_dicom', null).patient_name).toHaveLength(300);
    const proposed = prefillFields(long, {
      folderExamType: 'from_dicom',
      template: DEFAULT_NAME_TEMPLATE,
      language: 'es',
      defaultExpirationDays: 30,
    });
    expect(proposed).toMatchObject({ exam_type: 'cbct', expiration_days: 30, share_locale: 'es', reason: '' });
    expect(proposed.patient_name).toHaveLength(200);
    expect(proposed.patient_id).toHaveLength(64);
  });
});
