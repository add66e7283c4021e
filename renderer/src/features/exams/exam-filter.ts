// The Exams screen's filter: over the exams already loaded, by patient name, patient ID or exam name.
import type { ExamView } from '../../../../preload/contract';

/** Lower case without accents, so "munoz" finds "MUÑOZ" and "jose" finds "José". */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** True when the exam's patient name, patient ID or exam name contains every word of the query. */
export function matchesFilter(exam: ExamView, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = fold([exam.name, exam.patient_name ?? '', exam.patient_id ?? ''].join(' '));
  // IDs are often typed without dots or dashes (RUT 12.345.678-5 as 123456785).
  const compact = hay.replace(/[.\-\s]/g, '');
  return words.every((w) => hay.includes(w) || compact.includes(w.replace(/[.-]/g, '')));
}
