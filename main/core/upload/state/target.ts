// Where a job's files go. Most jobs create an exam (POST /exams); an extra take adds a series to an
// exam that already exists (POST /exams/{id}/extras → PUT each file → POST …/extras/{index}/confirm,
// API-v1.md §2.3, §4.2). The engine does not need to know which: an extra take is driven through
// the same ExamsPort, its "exam id" being the take's handle `<exam id>#<index>`, and the target is
// kept in the job's plan record so that a resumed job talks to the same take again.
//
// What the API cannot do for a take shapes the port below:
// - a take cannot be deleted: removing our own take (cancel, final failure) is a no-op, and a take
//   whose creation answer was lost (crash between POST /extras and the journal) cannot be filled
//   (its upload URLs are known to nobody). The orphan search finds it and refuses to go on, so a
//   job never announces a second take in its place;
// - a take cannot be "recreated" when its URLs expire (that would use up the exam's last slot):
//   jobs for a take run with `maxExamRecreations: 0` (see TARGET_ENGINE_OPTIONS).
import type { ApiClient } from '../../api';
import { toPortError } from '../ports/api-port';
import { UploadError } from '../ports/upload-errors';
import type { EngineOptions } from './engine-types';
import {
  type CallOptions,
  type CreatedExam,
  type ExamFields,
  type ExamSummary,
  type ExamsPort,
  ExamsPortError,
} from '../ports/ports';

/** Where a job uploads to. Absent (undefined) means a new exam. */
export type UploadTarget = { kind: 'extra'; exam_id: string; label: string };

/** Engine options a target imposes (see the file comment). */
export const TARGET_ENGINE_OPTIONS: Pick<EngineOptions, 'maxExamRecreations'> = { maxExamRecreations: 0 };

/** The handle the engine journals as the "exam id" of an extra take. */
export function takeHandle(examId: string, index: number): string {
  return `${examId}#${index}`;
}

/** The exam id and take index of a handle, or null when it is not one. */
export function parseTakeHandle(handle: string): { examId: string; index: number } | null {
  const m = /^(.+)#(\d{1,3})$/.exec(handle);
  if (!m?.[1] || !m[2]) return null;
  return { examId: m[1], index: Number(m[2]) };
}

/**
 * The ExamsPort of one extra take of `target.exam_id`. `fields` are the job's planned fields: the
 * orphan search compares them with what this port lists.
 */
export function extraTakePort(client: Pick<ApiClient, 'exams'>, target: UploadTarget, fields: ExamFields): ExamsPort {
  const exams = client.exams;
  const opts = (o?: CallOptions) => ({ signal: o?.signal, onRateLimit: 'throw' as const });
  const own = (handle: string): number => {
    const t = parseTakeHandle(handle);
    if (!t || t.examId !== target.exam_id)
      throw new ExamsPortError('rejected', 'This upload does not belong to that exam.');
    return t.index;
  };
  // Takes found by the orphan search: they can never be filled, and must not be replaced.
  const orphans = new Set<string>();

  const takeSummary = async (index: number, o?: CallOptions): Promise<ExamSummary> => {
    const exam = await exams.get(target.exam_id, opts(o));
    const take = exam.extra_series?.find((x) => x.index === index);
    if (!take) throw new ExamsPortError('not_found', `Extra take ${index} of exam ${target.exam_id} does not exist.`);
    return {
      id: takeHandle(target.exam_id, index),
      name: fields.name,
      status: take.status ?? '',
      patient_id: fields.patient_id ?? null,
      file_count: take.file_count ?? null,
      upload_mode: 'files',
      created_at: take.created_at ?? '',
    };
  };

  return {
    createExam: (input, o) =>
      call(async () => {
        if (input.upload_mode !== 'files') throw new ExamsPortError('rejected', 'An extra take is sent file by file.');
        const c = await exams.createExtra(target.exam_id, { label: target.label, files: input.files }, opts(o));
        const out: CreatedExam = {
          id: takeHandle(target.exam_id, c.index),
          created_at: new Date().toISOString(),
          upload_urls: c.upload_urls.map((u) => ({ name: u.name, url: u.url, expires_at: u.expires_at ?? '' })),
        };
        return out;
      }),
    confirmExam: (handle, o) =>
      call(async () => {
        const index = own(handle);
        const exam = await exams.confirmExtra(target.exam_id, index, { label: target.label }, opts(o));
        const take = exam.extra_series?.find((x) => x.index === index);
        return {
          id: handle,
          name: fields.name,
          status: take?.status ?? '',
          patient_id: fields.patient_id ?? null,
          file_count: take?.file_count ?? null,
          upload_mode: 'files',
          created_at: take?.created_at ?? '',
        };
      }),
    processZip: () => Promise.reject(new ExamsPortError('rejected', 'An extra take is sent file by file.')),
    deleteExam: async (handle) => {
      own(handle);
      if (orphans.has(handle)) {
        throw new UploadError(
          'take_unfinished',
          `The service has an unfinished extra take (${handle}) whose creation answer was lost; it cannot be completed or removed from here.`,
        );
      }
      // The API has no way to remove a take: an unconfirmed one stays unconfirmed on the service.
    },
    getExam: async (handle, o) => {
      try {
        return await call(() => takeSummary(own(handle), o));
      } catch (err) {
        if (err instanceof ExamsPortError && err.kind === 'not_found') return null;
        throw err;
      }
    },
    listRecentExams: (_limit, o) =>
      call(async () => {
        const exam = await exams.get(target.exam_id, opts(o));
        const out: ExamSummary[] = [];
        for (const take of exam.extra_series ?? []) {
          if (take.status === 'ready' || take.label !== target.label) continue;
          const id = takeHandle(target.exam_id, take.index);
          orphans.add(id);
          out.push({
            id,
            name: fields.name,
            status: 'uploading',
            patient_id: fields.patient_id ?? null,
            file_count: take.file_count ?? null,
            upload_mode: 'files',
            created_at: take.created_at ?? '',
          });
        }
        return out;
      }),
  };
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ExamsPortError) throw err;
    throw toPortError(err);
  }
}
