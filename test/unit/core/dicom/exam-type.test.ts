import { describe, expect, it } from 'vitest';
import { suggestExamType } from '@main/core/dicom';

describe('suggestExamType', () => {
  it('suggests cbct for CT', () => {
    expect(suggestExamType('CT')).toEqual({ exam_type: 'cbct', known: true });
  });
  it('suggests radiografia for panoramic, intra-oral, DX and CR', () => {
    for (const m of ['PX', 'IO', 'DX', 'CR', 'px'])
      expect(suggestExamType(m)).toEqual({ exam_type: 'radiografia', known: true });
  });
  it('suggests mesh for mesh files', () => {
    expect(suggestExamType('MESH')).toEqual({ exam_type: 'mesh', known: true });
  });
  it('suggests cbct but flags it as a guess for anything else', () => {
    for (const m of ['MR', 'OT', 'SC', 'US', ''])
      expect(suggestExamType(m)).toEqual({ exam_type: 'cbct', known: false });
  });
});
