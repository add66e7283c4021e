import { describe, expect, it } from 'vitest';
import { formatRutAsTyped, rutProblem } from '@renderer/src/features/patient-display/rut';
import { signatureExtent } from '@renderer/src/features/patient-display/signature-extent';

describe('the RUT as the patient types it', () => {
  it('gets thousands dots, and keeps the hyphen only when typed', () => {
    expect(formatRutAsTyped('1')).toBe('1');
    expect(formatRutAsTyped('1234')).toBe('1.234');
    expect(formatRutAsTyped('12345678')).toBe('12.345.678');
    expect(formatRutAsTyped('12345678-')).toBe('12.345.678-');
    expect(formatRutAsTyped('12345678-5')).toBe('12.345.678-5');
    expect(formatRutAsTyped('12.345.678-k')).toBe('12.345.678-K');
    expect(formatRutAsTyped('12 345 678 - 5x')).toBe('12.345.678-5');
  });

  it('names what is wrong: missing hyphen, wrong digit', () => {
    expect(rutProblem('12.345.678-5')).toBeNull();
    expect(rutProblem('12.345.678')).toBe('missing_hyphen');
    expect(rutProblem('12.345.678-')).toBe('missing_hyphen');
    expect(rutProblem('12.345.678-9')).toBe('invalid_rut');
    expect(rutProblem('')).toBe('empty');
  });
});

describe('what counts as a signature', () => {
  const group = (points: { x: number; y: number }[]) => ({
    points: points.map((p, i) => ({ ...p, time: i, pressure: 0.5 })),
    dotSize: 0,
    minWidth: 1,
    maxWidth: 3,
    penColor: '#000',
    velocityFilterWeight: 0.7,
    compositeOperation: 'source-over' as const,
  });

  it('a dot has no length', () => {
    expect(signatureExtent([group([{ x: 10, y: 10 }])])).toEqual({ length: 0, width: 0 });
  });

  it('adds the strokes up', () => {
    const e = signatureExtent([
      group([
        { x: 0, y: 0 },
        { x: 30, y: 40 },
      ]),
      group([
        { x: 100, y: 0 },
        { x: 100, y: 10 },
      ]),
    ]);
    expect(e).toEqual({ length: 60, width: 100 });
  });
});
