// Extra takes (API-v1.md §2.3, §4.2): the exam's takes for the panel, and "Add a take" from a folder
// or an inbox study, queued in the upload queue with the exam as its target (upload/target.ts).
import { relative, sep } from 'node:path';
import type { TakeBlock, TakesView } from '../../../../preload/contract';
import type { Exam } from '../../api';
import { scanFolder } from '../../dicom';
import type { ExamFields } from '../../upload/ports';
import type { Handlers } from '../host/contract-host';
import { ContractFailure } from '../host/contract-host';
import type { HandlerContext } from './handler-context';
import { checkFolder } from './handler-context';
import type { UploadRequest } from '../queue/upload-queue';

/** API v1 §8: at most 2 extra takes per exam (3 takes in total). */
export const MAX_EXTRAS = 2;
const TAKE_TYPES: ReadonlySet<string> = new Set(['cbct', 'atm']);

/** Why no take may be added, counting the takes this app is still sending. */
export function takeBlock(examType: string | null | undefined, takes: number, pending: number): TakeBlock | null {
  if (!TAKE_TYPES.has(examType ?? 'cbct')) return 'not_for_type';
  return takes + pending >= MAX_EXTRAS ? 'limit_reached' : null;
}

function view(exam: Exam, pending: number): TakesView {
  const extras = exam.extra_series ?? [];
  return {
    exam_id: exam.id,
    name: exam.name ?? '',
    exam_type: exam.exam_type ?? 'cbct',
    patient_name: exam.patient_name ?? '',
    patient_id: exam.patient_id ?? '',
    status: exam.status ?? '',
    extra_series: extras.map((x) => ({
      index: x.index,
      label: x.label ?? '',
      status: x.status ?? '',
      file_count: x.file_count ?? null,
      storage_bytes: x.storage_bytes ?? null,
      created_at: x.created_at ?? null,
    })),
    pending_jobs: pending,
    max_extras: MAX_EXTRAS,
    blocked: takeBlock(exam.exam_type, extras.length, pending),
  };
}

/** The fields a take's job carries: the exam's, for the Uploads list and the journal. */
function fieldsOf(exam: Exam): ExamFields {
  const out: ExamFields = { name: exam.name?.trim() || exam.id };
  if (exam.exam_type === 'cbct' || exam.exam_type === 'atm') out.exam_type = exam.exam_type;
  if (exam.patient_name) out.patient_name = exam.patient_name;
  if (exam.patient_id) out.patient_id = exam.patient_id;
  return out;
}

export function createTakesHandlers(ctx: HandlerContext): Pick<Handlers, 'takes:get' | 'takes:add'> {
  /** Takes of `examId` queued here whose take is not on the service yet (no take made: no exam id in the view). */
  const pendingJobs = (examId: string): number =>
    ctx.queue
      .list()
      .filter(
        (j) =>
          j.extra_take?.exam_id === examId &&
          j.exam_id === null &&
          j.phase !== 'ready' &&
          j.phase !== 'cancelled' &&
          !(j.phase === 'failed' && j.retry_at === null),
      ).length;

  return {
    'takes:get': async (args) => {
      const exam = await ctx.service.require().exams.get(args.exam_id);
      return view(exam, pendingJobs(exam.id));
    },
    'takes:add': async (args) => {
      const client = ctx.service.require();
      const exam = await client.exams.get(args.exam_id);
      const block = takeBlock(exam.exam_type, exam.extra_series?.length ?? 0, pendingJobs(exam.id));
      if (block === 'not_for_type')
        throw new ContractFailure(
          'take_not_available',
          `Extra takes are only for CBCT and TMJ exams; this one is ${exam.exam_type ?? 'unknown'}.`,
        );
      if (block === 'limit_reached')
        throw new ContractFailure(
          'take_limit',
          `This exam already has ${MAX_EXTRAS} extra takes (or they are being sent).`,
        );
      const target = { kind: 'extra' as const, exam_id: exam.id, label: args.label };
      const fields = fieldsOf(exam);
      let request: UploadRequest;
      if (args.source.kind === 'inbox') {
        const item = ctx.inbox.get(args.source.inbox_id);
        if (item.status !== 'review')
          throw new ContractFailure('conflict', 'This study is already being uploaded or was uploaded.');
        const base = await ctx.inbox.uploadRequest(args.source.inbox_id, 'review');
        request = { ...base, fields, expirationDays: null, ledger: null, target };
      } else {
        const root = await checkFolder(args.source.path);
        const scan = await scanFolder(root);
        const files = scan.studies
          .flatMap((s) => s.series.flatMap((x) => x.file_list))
          .map((f) => ({ path: f.path, name: relative(root, f.path).split(sep).join('/') }));
        if (files.length === 0)
          throw new ContractFailure('no_dicom', 'No DICOM images were found in this folder.', [
            { field: 'path', message: 'no DICOM files' },
          ]);
        request = { inboxId: null, source: 'review', root, files, fields, expirationDays: null, ledger: null, target };
      }
      const job = await ctx.queue.enqueue(request);
      if (args.source.kind === 'inbox') ctx.inbox.setStatus(args.source.inbox_id, 'queued', job.id);
      return { job_id: job.id };
    },
  };
}
