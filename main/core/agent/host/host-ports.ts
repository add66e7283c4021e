// What the agent needs from its host (Electron or plain Node), as small ports the host fills in.
import type { Logger } from '../../log';

/** An OS notification the front desk sees even with the window closed. */
export type Notice = {
  /** `service_notification`: a new notification of the account (the bell's list). */
  kind: 'exam_ready' | 'upload_failed' | 'service_notification';
  title: string;
  body: string;
  /** The upload job it is about (the window can show it when the notice is clicked). */
  job_id?: string;
};

export type Notifier = { notify(notice: Notice): void };

/** Opens the OS folder picker; null when cancelled or when there is no desktop (browser mode). */
export type FolderPicker = () => Promise<string | null>;

/**
 * Hands a document to the desktop (the patient's sheet to print): it shows the system's print
 * dialog for it. False when there is no desktop (browser mode: the window downloads the file
 * instead) or the dialog could not be shown.
 */
export type DocumentOpener = (doc: { name: string; bytes: Uint8Array }) => Promise<boolean>;

export const noDocumentOpener: DocumentOpener = async () => false;

/** A notifier for browser mode: notices go to the log, without their text (it may name a patient). */
export function logNotifier(log: Logger): Notifier {
  return { notify: (n) => log.info('notice', { kind: n.kind, job: n.job_id }) };
}

/** The folder picker where no desktop exists: the window falls back to typing the path. */
export const noFolderPicker: FolderPicker = async () => null;

/**
 * Shows a folder of this computer in the system's file manager (the log folder, for support);
 * false where there is no desktop (browser mode: the window names the folder instead).
 */
export type FolderOpener = (path: string) => Promise<boolean>;

export const noFolderOpener: FolderOpener = async () => false;
