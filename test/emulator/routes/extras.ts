import { z } from 'zod';
import type { App, ApiCtx } from '../core/app';
import { badRequest, limitExceeded, notFound } from '../core/http';
import type { ExtraSeries } from '../core/state';
import { objectBody, parseWith } from '../core/validate';
import { fileObjectName, objectKey, objectOfKey } from '../exams/exam-objects';
import { checkQuota } from '../exams/quota';
import { checkFileList, fileItem, MAX_EXTRAS } from '../exams/validation';
import { examView, getExam } from '../exams/view';
import { missingFiles, uploadIncomplete } from './exams';
import { presign } from './storage';

const label = z.string().trim().min(1, 'must not be empty').max(100, 'at most 100 characters');
const createSchema = z.strictObject({ label, files: z.array(fileItem) });
const confirmSchema = z.strictObject({ label: label.optional() });

const isReady = (x: ExtraSeries): boolean => x.status === 'ready';

/** Extra takes exist for CBCT and TMJ (atm) exams only (API-v1.md §2.3, CHOICES.md "Extras"). */
const EXTRA_TYPES = new Set(['cbct', 'atm']);

function create(app: App, { auth, params, body }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  if (!EXTRA_TYPES.has(exam.exam_type)) {
    throw badRequest(`Extra takes are not available for ${exam.exam_type} exams`, [
      { field: 'exam_type', message: 'extras only for cbct and atm exams' },
    ]);
  }
  const input = parseWith(createSchema, objectBody(body));
  const files = checkFileList(input.files);
  if (exam.extra_series.length >= MAX_EXTRAS) {
    throw limitExceeded(409, `At most ${MAX_EXTRAS} extra takes per exam`, { limit: MAX_EXTRAS });
  }
  checkQuota(
    app,
    auth,
    files.reduce((s, f) => s + f.size, 0),
    false,
  );
  const index = exam.extra_series.length + 1;
  const now = app.clock.nowIso();
  const series: ExtraSeries = {
    index,
    label: input.label,
    files: files.map((f) => ({
      name: f.name,
      size: f.size,
      object: objectKey(exam.id, fileObjectName(f.name, index)),
    })),
    status: 'uploading',
    storage_bytes: 0,
    created_at: now,
    confirmed_at: null,
  };
  exam.extra_series.push(series);
  exam.updated_at = now;
  app.events.activity(
    exam.account_id,
    'exam.extra_created',
    'exam',
    exam.id,
    { exam_id: exam.id, index, label: series.label, file_count: files.length },
    exam.sandbox,
  );
  return {
    status: 201,
    body: {
      index,
      label: series.label,
      upload_urls: series.files.map((f) => ({ name: f.name, ...presign(app, exam.id, objectOfKey(f.object)) })),
      confirm_url: `${app.origin()}/api/v1/exams/${encodeURIComponent(exam.id)}/extras/${index}/confirm`,
    },
  };
}

async function confirm(app: App, { auth, params, body }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  const index = /^\d{1,3}$/.test(params['index'] ?? '') ? Number(params['index']) : NaN;
  const series = exam.extra_series.find((x) => x.index === index);
  if (!series) throw notFound('Extra take');
  const input = parseWith(confirmSchema, objectBody(body));
  if (isReady(series)) {
    if (input.label !== undefined && input.label !== series.label) {
      series.label = input.label;
      exam.updated_at = app.clock.nowIso();
    }
    return { body: examView(app, exam) };
  }
  const missing = await missingFiles(app, series.files);
  if (missing.length) throw uploadIncomplete(missing);
  // A concurrent confirm may have finished while the objects were checked.
  if (isReady(series) || !app.store.state.exams.includes(exam)) return { body: examView(app, exam) };
  const now = app.clock.nowIso();
  if (input.label !== undefined) series.label = input.label;
  series.status = 'ready';
  series.confirmed_at = now;
  series.storage_bytes = series.files.reduce((s, f) => s + f.size, 0);
  exam.storage_bytes += series.storage_bytes;
  exam.updated_at = now;
  app.events.emit(
    exam.account_id,
    'exam.extra_added',
    {
      exam_id: exam.id,
      index: series.index,
      label: series.label,
      file_count: series.files.length,
      storage_bytes: series.storage_bytes,
    },
    exam.sandbox,
  );
  return { body: examView(app, exam) };
}

/** Extra takes of an exam (API-v1.md §2.3, §4.2). */
export function register(app: App): void {
  app.api.add('POST', '/exams/:id/extras', { scope: 'exams:write' }, (ctx) => create(app, ctx));
  app.api.add('POST', '/exams/:id/extras/:index/confirm', { scope: 'exams:write' }, (ctx) => confirm(app, ctx));
}
