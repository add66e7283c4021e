// The clinic's own copy of each signed consent. It names a patient, so it is readable by the
// clinic's account only (folder 0700 when created here, file 0600), and it is written whole or not
// at all (temporary file, then rename).
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A file name from the exam id alone (no patient name in names other tools may list). */
export function signedCopyName(examId: string): string {
  return `consent-${examId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120)}-signed.pdf`;
}

/** Saves the signed PDF into `folder`; returns the file's path. */
export async function saveSignedCopy(folder: string, examId: string, pdf: Uint8Array): Promise<string> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const target = join(folder, signedCopyName(examId));
  const temp = `${target}.${process.pid}.${Date.now()}.part`;
  try {
    await writeFile(temp, pdf, { mode: 0o600, flag: 'wx' });
    // The mode given to writeFile is filtered by the umask; chmod sets it exactly.
    await chmod(temp, 0o600);
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
  return target;
}
