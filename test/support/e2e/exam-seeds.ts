// Exams for the exam-workspace specs: one uploaded by the app itself (watch folder → inbox → upload
// engine), others created straight on the service, and report PDFs made with pdf-lib.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { EmulatorInfo } from '../emulator/emulator';
import { api } from '../emulator/emulator';
import { dropCbctExport } from './scanner-exports';
import type { ServeProcess } from './serve-process';

type InboxItem = { id: string; status: string; fields: { name: string } };
type Job = { id: string; phase: string; exam_id: string | null; error: { code: string } | null };

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Saves `key` in the running app, has it watch `watchDir`, detect a scanner export there and upload it; returns the exam id. */
export async function uploadThroughApp(
  app: ServeProcess,
  key: string,
  watchDir: string,
  patient: { name: string; id: string },
  folderName: string,
): Promise<string> {
  await app.rpc('keys:save', { key });
  await app.rpc('folders:add', {
    path: watchDir,
    exam_type: 'from_dicom',
    mode: 'review',
    settle_seconds: 1,
    polling: false,
  });
  await dropCbctExport(watchDir, folderName, {
    patientName: patient.name,
    patientId: patient.id,
    birthDate: '19800131',
    volumeSlices: 6,
    scoutSlices: 2,
  });
  const item = await until('the export in the inbox', async () =>
    (await app.rpc<InboxItem[]>('inbox:list')).find((i) => i.status === 'review'),
  );
  const { job_id } = await app.rpc<{ job_id: string }>('inbox:upload', { id: item.id });
  const job = await until('the upload to be ready', async () => {
    const j = (await app.rpc<Job[]>('uploads:list')).find((x) => x.id === job_id);
    if (j?.phase === 'failed' && j.error) throw new Error(`upload failed: ${j.error.code}`);
    return j?.phase === 'ready' && j.exam_id ? j : undefined;
  });
  return job.exam_id as string;
}

/** Creates a small ready exam straight on the service (create → PUT → confirm: 2 API calls). */
export async function seedExam(
  info: EmulatorInfo,
  key: string,
  fields: { name: string; patient_name?: string; patient_id?: string; exam_type?: string },
): Promise<string> {
  const body = new Uint8Array(2048).fill(7);
  const created = await api(info, key, 'POST', '/exams', {
    ...fields,
    files: [{ name: 'IMG0001.dcm', size: body.length }],
  });
  if (created.status !== 201) throw new Error(`POST /exams → ${created.status} ${JSON.stringify(created.json)}`);
  const id = created.json['id'] as string;
  const url = (created.json['upload_urls'] as { url: string }[])[0]?.url ?? '';
  const put = await fetch(url, { method: 'PUT', body, headers: { 'Content-Length': String(body.length) } });
  if (!put.ok) throw new Error(`PUT → ${put.status}`);
  const confirmed = await api(info, key, 'POST', `/exams/${id}/confirm`);
  if (confirmed.status !== 200) throw new Error(`confirm → ${confirmed.status}`);
  return id;
}

/** A real PDF of `pages` pages with a line of text on each. */
export async function makePdf(title: string, pages = 2): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${title} - page ${i}`, { x: 60, y: 760, size: 20, font });
    page.drawText('Radiology report: no findings of note.', { x: 60, y: 720, size: 12, font });
  }
  return Buffer.from(await doc.save());
}

/** X-RateLimit-Remaining of `key` now (this reading itself costs one call, which callers subtract). */
export async function remainingCalls(info: EmulatorInfo, key: string): Promise<number> {
  const res = await api(info, key, 'GET', '/me');
  const v = Number(res.headers.get('x-ratelimit-remaining'));
  if (!Number.isFinite(v)) throw new Error('no X-RateLimit-Remaining header');
  return v;
}
