import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { App } from '../core/app';
import type { Exam } from '../core/state';
import { objectKey, THUMBNAIL_OBJECT } from './exam-objects';
import { thumbnailPng } from './png';

/** Seconds of service time between an exam becoming ready and its thumbnail existing. */
export const THUMBNAIL_DELAY_SECONDS = 30;

/** Writes the exam's thumbnail PNG and records it; a deleted exam is skipped. */
export async function generateThumbnail(app: App, examId: string): Promise<Exam | undefined> {
  const exam = app.store.state.exams.find((e) => e.id === examId);
  if (!exam) return undefined;
  if (exam.thumbnail) return exam;
  const key = objectKey(exam.id, THUMBNAIL_OBJECT);
  const path = app.store.objectPath(key);
  const seed = createHash('sha256').update(exam.id).digest().readUInt16BE(0);
  await mkdir(app.store.objectPath(exam.id), { recursive: true });
  await writeFile(`${path}.tmp`, thumbnailPng(seed));
  await rename(`${path}.tmp`, path);
  // The exam may have been deleted while the file was written.
  if (!app.store.state.exams.includes(exam)) return undefined;
  exam.thumbnail = { object: key, content_type: 'image/png' };
  app.store.save();
  return exam;
}

function dueOf(app: App, exam: Exam): number {
  return Date.parse(exam.confirmed_at ?? exam.updated_at) + app.clock.scaled(THUMBNAIL_DELAY_SECONDS);
}

/** Schedules the thumbnail of an exam that just became ready. */
export function scheduleThumbnail(app: App, exam: Exam): void {
  const id = exam.id;
  app.clock.at(dueOf(app, exam), `thumbnail ${id}`, async () => {
    await generateThumbnail(app, id);
  });
}

/** After a restart: re-arms the thumbnails still owed (the schedule itself is not persisted). */
export function rearmThumbnails(app: App): void {
  for (const exam of app.store.state.exams) {
    if (exam.status === 'ready' && !exam.thumbnail) scheduleThumbnail(app, exam);
  }
}
