// Exams on the service (§4.2): list, details, thumbnail bytes, the patient's other exams, edit, delete.
// Ids named by the window are checked by the contract's `id` schema (preload/contract/method.ts).
import type { ExamView } from '../../../../preload/contract';
import type { Exam } from '../../api';
import { isApiError } from '../../api';
import type { UpdateExamRequest } from '../../api/endpoints';
import type { Handlers } from '../host/contract-host';
import { ContractFailure } from '../host/contract-host';
import type { HandlerContext } from './handler-context';
import { definedFields } from '../../defined';

/** A stored exam as the window sees it. */
export function examView(e: Exam): ExamView {
  return {
    id: e.id,
    name: e.name ?? '',
    exam_type: e.exam_type ?? 'cbct',
    status: e.status ?? 'uploading',
    patient_name: e.patient_name ?? null,
    patient_id: e.patient_id ?? null,
    birth_date: e.birth_date ?? null,
    reason: e.reason ?? null,
    expiration_days: e.expiration_days ?? null,
    expires_at: e.expires_at ?? null,
    radiograph_subtype: e.radiograph_subtype ?? null,
    file_count: e.file_count ?? null,
    storage_bytes: e.storage?.bytes ?? null,
    counters: e.counters
      ? { views: e.counters.views ?? 0, shares: e.counters.shares ?? 0, downloads: e.counters.downloads ?? 0 }
      : null,
    extra_series: e.extra_series?.length ?? 0,
    viewer_url: e.viewer_url ?? null,
    share_url: e.share_url ?? null,
    share_password: e.share_password ?? null,
    public_page_pin: e.public_page_pin ?? null,
    created_at: e.created_at ?? null,
  };
}

export function createExamsHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  'exams:list' | 'exams:get' | 'exams:thumbnail' | 'exams:patient-exams' | 'exams:update' | 'exams:delete'
> {
  return {
    'exams:list': async (args) => {
      const page = await ctx.service.require().exams.list({ limit: args.limit, offset: args.offset });
      // The list never carries secrets to the window: only the detail does.
      const exams = page.exams.map((e) => ({ ...examView(e), share_password: null, public_page_pin: null }));
      return {
        exams,
        total: page.total ?? args.offset + exams.length,
        limit: page.limit ?? args.limit,
        offset: page.offset ?? args.offset,
      };
    },
    'exams:get': async (args) => examView(await ctx.service.require().exams.get(args.id)),
    'exams:thumbnail': async (args) => {
      try {
        const t = await ctx.service.require().exams.thumbnail(args.id);
        if (!/^image\/(png|jpeg)$/.test(t.contentType))
          throw new ContractFailure('invalid_response', 'The preview image has an unexpected format.');
        return {
          ready: true as const,
          content_type: t.contentType,
          base64: Buffer.from(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength).toString('base64'),
        };
      } catch (e) {
        if (isApiError(e, 'thumbnail_not_ready')) return { ready: false as const };
        throw e;
      }
    },
    'exams:patient-exams': async (args) => {
      const id = args.id;
      const res = await ctx.service.require().exams.patientExams(id);
      return {
        exams: res.exams
          .filter((x) => x.id !== id)
          .map((x) => ({
            id: x.id,
            name: x.name ?? null,
            exam_type: x.exam_type ?? null,
            created_at: x.created_at ?? null,
          })),
      };
    },
    'exams:update': async (args) => {
      const fields = [
        'name',
        'patient_name',
        'patient_id',
        'birth_date',
        'reason',
        'expiration_days',
        'radiograph_subtype',
      ] as const;
      const body: UpdateExamRequest = definedFields(args.fields, fields);
      if (Object.keys(body).length === 0)
        throw new ContractFailure('invalid_args', 'Nothing to change.', [
          { field: 'fields', message: 'no field given' },
        ]);
      return examView(await ctx.service.require().exams.update(args.id, body));
    },
    'exams:delete': async (args) => {
      const res = await ctx.service.require().exams.remove(args.id);
      return { deleted: true as const, already_deleted: res.already_deleted === true };
    },
  };
}
