// Which API v1 exam type a modality suggests. Staff can change it in the inbox.
import type { ExamType } from './dicom-types';

const RADIOGRAPH_MODALITIES = new Set(['PX', 'IO', 'DX', 'CR']);

export type ExamTypeSuggestion = { exam_type: ExamType; known: boolean };

/**
 * CT → cbct; PX, IO, DX, CR → radiografia; MESH → mesh. Anything else (MR, OT, SC, US…) is
 * suggested as cbct, the service's default type, with `known: false` so the inbox asks staff to check.
 */
export function suggestExamType(modality: string): ExamTypeSuggestion {
  const m = modality.trim().toUpperCase();
  if (m === 'CT') return { exam_type: 'cbct', known: true };
  if (RADIOGRAPH_MODALITIES.has(m)) return { exam_type: 'radiografia', known: true };
  if (m === 'MESH') return { exam_type: 'mesh', known: true };
  return { exam_type: 'cbct', known: false };
}
