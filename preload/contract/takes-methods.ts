// Extra takes of an exam (API-v1.md §2.3, §4.2): a second or third series of a CBCT or atm exam,
// uploaded through the same resumable queue as exams.
import { z } from 'zod';
import { id, method } from './method';
import type { ExamType } from './vocabulary';

/** Why a take cannot be added: the exam's type has none, or it has all it may have. */
export type TakeBlock = 'not_for_type' | 'limit_reached';

export type ExtraTakeView = {
  index: number;
  label: string;
  /** `uploading` until confirmed, then `ready`. */
  status: string;
  file_count: number | null;
  storage_bytes: number | null;
  created_at: string | null;
};

/** What the takes panel shows of an exam. */
export type TakesView = {
  exam_id: string;
  name: string;
  exam_type: ExamType | string;
  patient_name: string;
  patient_id: string;
  status: string;
  extra_series: ExtraTakeView[];
  /** Takes this app is still sending to this exam (not yet on the service's list). */
  pending_jobs: number;
  max_extras: number;
  /** null when "Add a take" is possible. */
  blocked: TakeBlock | null;
};

const label = z.string().trim().min(1).max(100);
const source = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('folder'), path: z.string().min(1).max(4096) }).strict(),
  z.object({ kind: z.literal('inbox'), inbox_id: id }).strict(),
]);

export const takesMethods = {
  /** The exam (one GET /exams/{id}) with its extra takes and whether another may be added. */
  'takes:get': method<TakesView>()(z.object({ exam_id: id }).strict()),
  /** Reads the DICOM files of a folder or an inbox study and queues them as a take of the exam. */
  'takes:add': method<{ job_id: string }>()(z.object({ exam_id: id, label, source }).strict()),
} as const;
