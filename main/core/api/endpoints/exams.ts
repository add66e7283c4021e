import type { CallOptions, Transport } from '../http/http';
import { apiPath, type ApiPath } from '../http/http';
import { paginateOffset } from '../http/paging';
import {
  type AccessPin,
  accessPinSchema,
  type CreatedExam,
  createdExamSchema,
  type CreatedExtra,
  createdExtraSchema,
  type CreateExamRequest,
  type CreateExtraRequest,
  type EmbedEnabled,
  embedEnabledSchema,
  type EmbedRevoked,
  embedRevokedSchema,
  type EmbedState,
  embedStateSchema,
  type EnableEmbedRequest,
  type Exam,
  type ExamDeleted,
  examDeletedSchema,
  type ExamList,
  examListSchema,
  examSchema,
  type PatientExams,
  patientExamsSchema,
  type ProcessedZip,
  processedZipSchema,
  type RotatedPin,
  rotatedPinSchema,
  type ShareExamRequest,
  type ShareResult,
  shareResultSchema,
  type Thumbnail,
  type UpdateExamRequest,
} from './exam-schemas';
import type { PageQuery } from '../http/api-schema';

export type * from './exam-schemas';

const exam = (id: string, ...rest: (string | number)[]): ApiPath => apiPath('exams', id, ...rest);

/**
 * The exam's sub-resources beside its record and its uploads: the clinic public page's PIN, the
 * embeddable viewer, the thumbnail and the same patient's other exams.
 */
function examAccessApi(t: Transport) {
  return {
    /** GET /exams/{id}/access-pin: the PIN of the clinic public page. */
    getAccessPin: (id: string, options?: CallOptions): Promise<AccessPin> =>
      t.json({ method: 'GET', path: exam(id, 'access-pin'), kind: 'read', idempotent: true }, accessPinSchema, options),

    /** POST /exams/{id}/access-pin: a new PIN; the old one stops working at once. */
    rotateAccessPin: (id: string, options?: CallOptions): Promise<RotatedPin> =>
      t.json(
        { method: 'POST', path: exam(id, 'access-pin'), kind: 'write', idempotent: false },
        rotatedPinSchema,
        options,
      ),

    /** GET /exams/{id}/embed: whether the embeddable viewer is on, and its snippet. */
    getEmbed: (id: string, options?: CallOptions): Promise<EmbedState> =>
      t.json({ method: 'GET', path: exam(id, 'embed'), kind: 'read', idempotent: true }, embedStateSchema, options),

    /** POST /exams/{id}/embed: turns the embed on (a fresh token after a revoke). */
    enableEmbed: (id: string, body: EnableEmbedRequest = {}, options?: CallOptions): Promise<EmbedEnabled> =>
      t.json(
        { method: 'POST', path: exam(id, 'embed'), body, kind: 'write', idempotent: false },
        embedEnabledSchema,
        options,
      ),

    /** DELETE /exams/{id}/embed: revokes the embed; its URL stops working. */
    revokeEmbed: (id: string, options?: CallOptions): Promise<EmbedRevoked> =>
      t.json(
        { method: 'DELETE', path: exam(id, 'embed'), kind: 'write', idempotent: true },
        embedRevokedSchema,
        options,
      ),

    /** GET /exams/{id}/thumbnail: JPEG/PNG bytes; ThumbnailNotReadyError until generated. */
    thumbnail: (id: string, options?: CallOptions): Promise<Thumbnail> =>
      t.bytes({ method: 'GET', path: exam(id, 'thumbnail'), kind: 'binary', idempotent: true }, options),

    /** GET /exams/{id}/patient-exams: other exams of the same patient. */
    patientExams: (id: string, options?: CallOptions): Promise<PatientExams> =>
      t.json(
        { method: 'GET', path: exam(id, 'patient-exams'), kind: 'read', idempotent: true },
        patientExamsSchema,
        options,
      ),
  };
}

/**
 * Exam endpoints (§4.2) with their sub-resources. Creating, sharing, adding an extra, rotating the
 * PIN and enabling the embed are never repeated after a fault; the rest are safe to repeat.
 */
export function examsApi(t: Transport) {
  const api = {
    /** POST /exams: creates the exam and returns its presigned upload URL(s). Never retried. */
    create: (body: CreateExamRequest, options?: CallOptions): Promise<CreatedExam> =>
      t.json(
        { method: 'POST', path: apiPath('exams'), body, kind: 'write', idempotent: false },
        createdExamSchema,
        options,
      ),

    /** GET /exams: one page, newest first (limit ≤ 100). */
    list: (query: PageQuery = {}, options?: CallOptions): Promise<ExamList> =>
      t.json({ method: 'GET', path: apiPath('exams'), query, kind: 'read', idempotent: true }, examListSchema, options),

    /** Every exam of the account, newest first, fetched page by page. */
    iterate: (query: { pageSize?: number } = {}, options: CallOptions = {}): AsyncGenerator<Exam, void, undefined> =>
      paginateOffset(
        async (limit, offset) => {
          const page = await api.list({ limit, offset }, options);
          return { items: page.exams, total: page.total };
        },
        Math.min(100, Math.max(1, Math.floor(query.pageSize ?? 100))),
        (e) => e.id,
        options.signal,
      ),

    /** GET /exams/{id}: details including share_url, viewer_url, share_password, public_page_pin. */
    get: (id: string, options?: CallOptions): Promise<Exam> =>
      t.json({ method: 'GET', path: exam(id), kind: 'read', idempotent: true }, examSchema, options),

    /** PATCH /exams/{id}: changes only the fields given (absolute values, so safe to repeat). */
    update: (id: string, body: UpdateExamRequest, options?: CallOptions): Promise<Exam> =>
      t.json({ method: 'PATCH', path: exam(id), body, kind: 'write', idempotent: true }, examSchema, options),

    /** DELETE /exams/{id}: `already_deleted` when it was already gone. */
    remove: (id: string, options?: CallOptions): Promise<ExamDeleted> =>
      t.json({ method: 'DELETE', path: exam(id), kind: 'write', idempotent: true }, examDeletedSchema, options),

    /** POST /exams/{id}/confirm: marks a files-mode exam ready once every file is stored. */
    confirm: (id: string, options?: CallOptions): Promise<Exam> =>
      t.json({ method: 'POST', path: exam(id, 'confirm'), kind: 'write', idempotent: true }, examSchema, options),

    /** POST /exams/{id}/process-zip: the service unpacks the uploaded ZIP (up to 300 s). */
    processZip: (id: string, options?: CallOptions): Promise<ProcessedZip> =>
      t.json(
        { method: 'POST', path: exam(id, 'process-zip'), kind: 'long', idempotent: true },
        processedZipSchema,
        options,
      ),

    /** POST /exams/{id}/share: e-mails the exam. Never retried (it would send twice). */
    share: (id: string, body: ShareExamRequest, options?: CallOptions): Promise<ShareResult> =>
      t.json(
        { method: 'POST', path: exam(id, 'share'), body, kind: 'write', idempotent: false },
        shareResultSchema,
        options,
      ),

    /** POST /exams/{id}/extras: announces an extra take (cbct/atm, at most 2). Never retried. */
    createExtra: (id: string, body: CreateExtraRequest, options?: CallOptions): Promise<CreatedExtra> =>
      t.json(
        { method: 'POST', path: exam(id, 'extras'), body, kind: 'write', idempotent: false },
        createdExtraSchema,
        options,
      ),

    /** POST /exams/{id}/extras/{index}/confirm: verifies the extra's files and updates the exam. */
    confirmExtra: (id: string, index: number, body: { label?: string } = {}, options?: CallOptions): Promise<Exam> =>
      t.json(
        {
          method: 'POST',
          path: exam(id, 'extras', index, 'confirm'),
          body: body.label === undefined ? undefined : body,
          kind: 'write',
          idempotent: true,
        },
        examSchema,
        options,
      ),

    ...examAccessApi(t),
  };
  return api;
}
