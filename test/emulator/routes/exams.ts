import { readFile, rm, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { App, ApiCtx } from '../core/app';
import { ApiError, badRequest, conflict, limitExceeded, notFound, parseJson, readBody, sendBytes } from '../core/http';
import { newId, randomToken } from '../core/ids';
import { PLANS } from '../core/plans';
import type { Exam, StoredFile } from '../core/state';
import { objectBody, parseWith, queryInt } from '../core/validate';
import { fileObjectName, objectKey, objectOfKey, removeExamObjectsLater, ZIP_OBJECT } from '../exams/exam-objects';
import { checkQuota } from '../exams/quota';
import { uniquePin } from '../exams/pin';
import { markReady } from '../exams/ready';
import { generateThumbnail, rearmThumbnails } from '../exams/thumbnail';
import {
  checkBirthDate,
  checkFileList,
  createExamSchema,
  IMMUTABLE_FIELDS,
  MAX_ZIP_BYTES,
  patchExamSchema,
} from '../exams/validation';
import { examView, getExam, visibleExams } from '../exams/view';
import { extractZip } from '../exams/zip';
import { presign } from './storage';

/** Names of declared files whose object is absent or not exactly the declared size. */
export async function missingFiles(app: App, files: StoredFile[]): Promise<string[]> {
  const sizes = await Promise.all(
    files.map((f) =>
      stat(app.store.objectPath(f.object)).then(
        (s) => s.size,
        () => -1,
      ),
    ),
  );
  return files.filter((f, i) => sizes[i] !== f.size).map((f) => f.name);
}

export const uploadIncomplete = (missing: string[]): ApiError =>
  new ApiError(409, 'upload_incomplete', `${missing.length} file(s) not uploaded yet`, { missing });

function create(app: App, { body, auth }: ApiCtx) {
  const input = parseWith(createExamSchema, objectBody(body));
  checkBirthDate(input.birth_date, app.clock.now());
  const mode = input.upload_mode ?? 'files';
  let files: { name: string; size: number }[] = [];
  let declared: number;
  if (mode === 'files') {
    if (input.zip_size_bytes != null)
      throw badRequest('zip_size_bytes is only for upload_mode=zip', [
        { field: 'zip_size_bytes', message: 'not allowed in files mode' },
      ]);
    files = checkFileList(input.files);
    declared = files.reduce((s, f) => s + f.size, 0);
  } else {
    if (input.files != null)
      throw badRequest('files is not allowed with upload_mode=zip', [
        { field: 'files', message: 'not allowed in zip mode' },
      ]);
    if (input.zip_size_bytes == null)
      throw badRequest('zip_size_bytes is required with upload_mode=zip', [
        { field: 'zip_size_bytes', message: 'required' },
      ]);
    if (input.zip_size_bytes > MAX_ZIP_BYTES)
      throw limitExceeded(400, `zip_size_bytes exceeds ${MAX_ZIP_BYTES} bytes`, { limit_bytes: MAX_ZIP_BYTES });
    declared = input.zip_size_bytes;
  }
  const examType = input.exam_type ?? 'cbct';
  if (examType === 'radiografia' && !PLANS[auth.account.plan].radiografia) {
    throw new ApiError(403, 'plan_required', 'radiografia exams require the Pro plan or above', {
      required_plan: 'pro',
    });
  }
  checkQuota(app, auth, declared, true);

  const id = newId('exm_');
  const now = app.clock.nowIso();
  const exam: Exam = {
    id,
    account_id: auth.account.id,
    sandbox: auth.sandbox,
    name: input.name,
    exam_type: examType,
    patient_name: input.patient_name ?? null,
    patient_id: input.patient_id ?? null,
    birth_date: input.birth_date ?? null,
    reason: input.reason ?? null,
    expiration_days: input.expiration_days ?? null,
    radiograph_subtype: null,
    status: 'uploading',
    upload_mode: mode,
    files: files.map((f) => ({ name: f.name, size: f.size, object: objectKey(id, fileObjectName(f.name)) })),
    zip: mode === 'zip' ? { size: declared, object: objectKey(id, ZIP_OBJECT) } : null,
    share_token: randomToken(18),
    share_password: newId('', 10),
    public_page_pin: uniquePin(app, auth.account.id),
    pin_rotated_at: null,
    extra_series: [],
    storage_bytes: 0,
    counters: { views: 0, shares: 0, downloads: 0 },
    embed: {
      enabled: false,
      token: null,
      title: null,
      show_year: true,
      show_study_type: true,
      view_count: 0,
      enabled_at: null,
    },
    thumbnail: null,
    consent: null,
    report: null,
    created_at: now,
    updated_at: now,
    confirmed_at: null,
  };
  app.store.state.exams.push(exam);
  app.events.emit(
    auth.account.id,
    'exam.created',
    {
      exam_id: id,
      name: exam.name,
      exam_type: exam.exam_type,
      status: exam.status,
      patient_name: exam.patient_name,
      patient_id: exam.patient_id,
      created_at: exam.created_at,
    },
    auth.sandbox,
  );
  const view = examView(app, exam);
  if (mode === 'zip') return { status: 201, body: { ...view, upload_url: presign(app, id, ZIP_OBJECT) } };
  const upload_urls = exam.files.map((f) => ({ name: f.name, ...presign(app, id, objectOfKey(f.object)) }));
  return { status: 201, body: { ...view, upload_urls } };
}

function patch(app: App, { body, auth, params }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  const raw = objectBody(body);
  const keys = Object.keys(raw);
  if (keys.length === 0) throw badRequest('Nothing to update', [{ field: 'body', message: 'at least one field' }]);
  const immutable = keys.filter((k) => IMMUTABLE_FIELDS.includes(k));
  if (immutable.length) {
    throw badRequest(
      `Immutable field(s): ${immutable.join(', ')}`,
      immutable.map((field) => ({ field, message: 'cannot be changed' })),
    );
  }
  const input = parseWith(patchExamSchema, raw);
  if (input.radiograph_subtype !== undefined && exam.exam_type !== 'radiografia') {
    throw badRequest('radiograph_subtype applies only to radiografia exams', [
      { field: 'radiograph_subtype', message: 'only for radiografia exams' },
    ]);
  }
  checkBirthDate(input.birth_date, app.clock.now());
  const record = exam as unknown as Record<string, unknown>;
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(input)) {
    if (to === undefined) continue;
    const from = record[field] ?? null;
    if (from === to) continue;
    changes[field] = { from, to };
    record[field] = to;
  }
  const fields = Object.keys(changes);
  if (fields.length) {
    exam.updated_at = app.clock.nowIso();
    app.events.emit(exam.account_id, 'exam.updated', { exam_id: exam.id, fields, changes }, exam.sandbox);
  }
  return { body: examView(app, exam) };
}

function remove(app: App, { auth, params }: ApiCtx) {
  const id = params['id'] ?? '';
  const state = app.store.state;
  const i = state.exams.findIndex((e) => e.id === id && e.account_id === auth.account.id && e.sandbox === auth.sandbox);
  const exam = state.exams[i];
  if (!exam) return { body: { deleted: true, exam_id: id, already_deleted: true } };
  state.exams.splice(i, 1);
  state.deleted_exam_ids.push(id);
  app.events.emit(
    exam.account_id,
    'exam.deleted',
    { exam_id: id, exam_type: exam.exam_type, deleted_at: app.clock.nowIso() },
    exam.sandbox,
  );
  removeExamObjectsLater(app, id);
  return { body: { deleted: true, exam_id: id } };
}

async function confirm(app: App, { auth, params }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  if (exam.upload_mode === 'zip') throw conflict('This exam uploads a ZIP: call POST /exams/{id}/process-zip');
  if (exam.status === 'ready') return { body: examView(app, exam) };
  const missing = await missingFiles(app, exam.files);
  if (missing.length) throw uploadIncomplete(missing);
  // A concurrent confirm may have finished while the objects were checked.
  if (exam.status === 'uploading' && app.store.state.exams.includes(exam)) markReady(app, exam);
  return { body: examView(app, exam) };
}

const processing = new Map<string, Promise<void>>();

async function processZip(app: App, { auth, params }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  if (exam.upload_mode !== 'zip' || !exam.zip) throw conflict('This exam uploads files: call POST /exams/{id}/confirm');
  if (exam.status === 'uploading') {
    let job = processing.get(exam.id);
    if (!job) {
      const zip = exam.zip;
      job = (async () => {
        const zipPath = app.store.objectPath(zip.object);
        const size = await stat(zipPath).then(
          (s) => s.size,
          () => -1,
        );
        if (size !== zip.size) throw uploadIncomplete([ZIP_OBJECT]);
        const files = await extractZip(app, exam.id, zipPath);
        if (!app.store.state.exams.includes(exam)) {
          // Deleted while unpacking: the clean-up may have run before these files were written.
          removeExamObjectsLater(app, exam.id);
          throw notFound('Exam');
        }
        exam.files = files;
        markReady(app, exam);
        app.store.save();
        removeStagedZip(zipPath);
      })().finally(() => processing.delete(exam.id));
      processing.set(exam.id, job);
    }
    await job;
  }
  return { body: { ...examView(app, exam), files_stored: exam.files.length } };
}

/** The archive is not kept once unpacked; its bytes are counted as the files it held. */
function removeStagedZip(zipPath: string): void {
  setImmediate(() => void rm(zipPath, { force: true }).catch(() => undefined));
}

async function thumbnail(app: App, { auth, params, res }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  const data = exam.thumbnail ? await readFile(app.store.objectPath(exam.thumbnail.object)).catch(() => null) : null;
  if (!exam.thumbnail || !data)
    throw new ApiError(404, 'thumbnail_not_ready', 'The thumbnail has not been generated yet');
  sendBytes(res, 200, exam.thumbnail.content_type, data, { 'Cache-Control': 'private, max-age=300' });
  return null;
}

/** Lower case, accents removed, inner spaces collapsed (CHOICES.md, "Exams", patient-exams). */
export function normalizeName(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

function patientExams(app: App, { auth, params }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  const pid = exam.patient_id?.trim() ?? '';
  const pname = exam.patient_name ? normalizeName(exam.patient_name) : '';
  const others = visibleExams(app, auth).filter((e) => {
    if (e.id === exam.id) return false;
    if (pid) return (e.patient_id?.trim() ?? '') === pid;
    return pname !== '' && e.patient_name !== null && normalizeName(e.patient_name) === pname;
  });
  return {
    body: {
      exams: others
        .reverse()
        .map((e) => ({ id: e.id, name: e.name, exam_type: e.exam_type, created_at: e.created_at })),
    },
  };
}

/** Exam lifecycle routes (API-v1.md §4.2, §3.1) plus the thumbnail control route. */
export function register(app: App): void {
  app.api.add('POST', '/exams', { scope: 'exams:write' }, (ctx) => create(app, ctx));
  app.api.add('GET', '/exams', { scope: 'exams:read' }, ({ auth, query }) => {
    const limit = queryInt(query, 'limit', 20, 1, 100);
    const offset = queryInt(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const all = visibleExams(app, auth).reverse();
    return {
      body: { exams: all.slice(offset, offset + limit).map((e) => examView(app, e)), total: all.length, limit, offset },
    };
  });
  app.api.add('GET', '/exams/:id', { scope: 'exams:read' }, ({ auth, params }) => ({
    body: examView(app, getExam(app, auth, params['id'] ?? '')),
  }));
  app.api.add('PATCH', '/exams/:id', { scope: 'exams:write' }, (ctx) => patch(app, ctx));
  app.api.add('DELETE', '/exams/:id', { scope: 'exams:write' }, (ctx) => remove(app, ctx));
  app.api.add('POST', '/exams/:id/confirm', { scope: 'exams:write' }, (ctx) => confirm(app, ctx));
  app.api.add('POST', '/exams/:id/process-zip', { scope: 'exams:write' }, (ctx) => processZip(app, ctx));
  app.api.add('GET', '/exams/:id/thumbnail', { scope: 'exams:read' }, (ctx) => thumbnail(app, ctx));
  app.api.add('GET', '/exams/:id/patient-exams', { scope: 'exams:read' }, (ctx) => patientExams(app, ctx));

  app.control.add('POST', '/exams/:id/thumbnail', { scope: null }, async ({ params }) => {
    const exam = app.store.state.exams.find((e) => e.id === params['id']);
    if (!exam) throw notFound('Exam');
    if (exam.status !== 'ready') throw conflict('The exam is not ready yet');
    await generateThumbnail(app, exam.id);
    return { body: { exam_id: exam.id, thumbnail_ready: true } };
  });
  // Tests that need a long list of exams (thousands) create them in one call: each goes through
  // POST /exams's own checks and events, and the state is saved once instead of once per exam.
  app.control.add('POST', '/exams/seed', { scope: null }, async (ctx) => {
    const input = parseWith(
      z.object({ key: z.string(), exams: z.array(z.record(z.string(), z.unknown())).min(1).max(5000) }).strict(),
      objectBody(parseJson(await readBody(ctx.req))),
    );
    const key = app.store.state.keys.find((k) => k.key === input.key);
    const account = key && app.store.state.accounts.find((a) => a.id === key.account_id);
    if (!key || !account) throw new ApiError(401, 'unauthorized', 'Unknown API key');
    const auth = { key, account, sandbox: key.sandbox };
    const ids = input.exams.map((body) => {
      const reply = create(app, { ...ctx, body, auth });
      return String((reply.body as Record<string, unknown>)['id']);
    });
    return { status: 201, body: { ids } };
  });
  app.onStart(() => rearmThumbnails(app));
}
