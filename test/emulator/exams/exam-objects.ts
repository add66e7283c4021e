import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { App } from '../core/app';

/**
 * Stored objects of an exam live under `objects/<exam_id>/<object>`; `<object>` is one flat, URL-safe
 * segment, so presigned URLs and disk paths need no escaping. Uploaded files are keyed by a hash of
 * their relative name (names like `a` and `a/b` would clash as paths).
 */
export const ZIP_OBJECT = 'upload.zip';
export const THUMBNAIL_OBJECT = 'thumbnail.png';

const SAFE_OBJECT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** True for an object name this emulator could have issued (no separators, no dot segments). */
export function isSafeObjectName(object: string): boolean {
  return SAFE_OBJECT.test(object) && !object.includes('..');
}

/** Object name of a main-series file (`f-…`) or of a file of extra take n (`x<n>-…`). */
export function fileObjectName(name: string, extraIndex?: number): string {
  const prefix = extraIndex === undefined ? 'f' : `x${extraIndex}`;
  return `${prefix}-${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 40)}`;
}

/** Store key of an exam object (see Store.objectPath). */
export function objectKey(examId: string, object: string): string {
  return `${examId}/${object}`;
}

/** The object name part of a store key issued by objectKey. */
export function objectOfKey(key: string): string {
  return key.slice(key.indexOf('/') + 1);
}

/** Removes every stored object of a deleted exam, off the request path. */
export function removeExamObjectsLater(app: App, examId: string): void {
  setImmediate(() => {
    rm(app.store.objectPath(examId), { recursive: true, force: true }).catch((err: unknown) => {
      process.stderr.write(
        `emulator: cleaning objects of a deleted exam failed: ${err instanceof Error ? err.message : String(err)}\n`,
      );
    });
  });
}
