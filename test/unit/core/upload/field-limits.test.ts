// Exam fields fitted to the service: cleaned, cut to its lengths, and every cut reported.
import { describe, expect, it } from 'vitest';
import { describeCut, fitFieldsToService } from '@main/core/upload/plan/field-limits';

describe('fitFieldsToService', () => {
  it('cuts a 10 KB patient name to 200 characters and says so', () => {
    const { fields, cuts } = fitFieldsToService({
      name: 'CBCT',
      patient_name: 'A'.repeat(10_240),
      patient_id: '1'.repeat(70),
    });
    expect(fields.patient_name).toHaveLength(200);
    expect(fields.patient_id).toHaveLength(64);
    expect(cuts).toEqual([
      { field: 'patient_name', from: 10_240, to: 200 },
      { field: 'patient_id', from: 70, to: 64 },
    ]);
    expect(describeCut(cuts[0] as (typeof cuts)[number])).toBe(
      'The patient name has 10240 characters; the service keeps at most 200: it was cut to 200.',
    );
  });

  it('removes control characters and lone surrogates, and drops fields left empty', () => {
    const { fields, cuts } = fitFieldsToService({
      name: 'CBCT\x1b[2J \ud800',
      patient_name: '\x07\x1b',
      patient_id: 'ID\u00859',
      exam_type: 'cbct',
    });
    expect(fields).toEqual({ name: 'CBCT[2J', patient_id: 'ID 9', exam_type: 'cbct' });
    expect(cuts).toEqual([]);
  });
});
