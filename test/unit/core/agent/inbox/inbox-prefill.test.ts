import { describe, expect, it } from 'vitest';
import { DEFAULT_NAME_TEMPLATE, renderExamName } from '@main/core/agent/inbox/inbox-prefill';

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
