// What every handler module of the contract works with: the agent's services (the context), and the
// checks several domains share (a folder path from the window, a settings change).
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { AppInfo, KeysStatus, Language, ReceiveStatus, Settings } from '../../../../preload/contract';
import type { ConsentDesk } from '../../consent/desk';
import type { SettingsPatch, SettingsStore } from '../../settings';
import { SettingsValidationError } from '../../settings';
import type { NotificationFeed } from '../background/notification-feed';
import type { PollScheduler } from '../background/poll-scheduler';
import { ContractFailure } from '../host/contract-host';
import type { DocumentOpener, FolderOpener, FolderPicker } from '../host/host-ports';
import type { Inbox } from '../inbox/inbox';
import type { SkippedCopies } from '../pipeline/skipped-copies';
import type { ExamRecorder } from '../pipeline/exam-recorder';
import type { UploadQueue } from '../queue/upload-queue';
import type { KeyManager } from '../service/api-keys';
import type { CaFileSettings } from '../service/ca-file-settings';
import type { ProxySettings } from '../service/proxy-settings';
import type { ServiceConnection } from '../service/service-connection';
import type { ShareOnReady } from '../share-on-ready';

export type HandlerContext = {
  transport: AppInfo['transport'];
  systemLanguage: Language;
  settingsStore: SettingsStore;
  keys: KeyManager;
  service: ServiceConnection;
  inbox: Inbox;
  /** Copies of already uploaded studies found lately. */
  copies: SkippedCopies;
  queue: UploadQueue;
  /** Claims on the share and the done marker of every upload. */
  recorder: ExamRecorder;
  consent: ConsentDesk;
  folderPicker: FolderPicker;
  documentOpener: DocumentOpener;
  /** What became of each exam's share-on-ready e-mail. */
  shares: ShareOnReady;
  settingsView: () => Settings;
  keysStatus: () => KeysStatus;
  /** Re-reads which key is active, rebuilds the client and tells the windows. */
  keysChanged: () => void;
  /** The one background scheduler (see background/poll-scheduler.ts). */
  poll: PollScheduler;
  feed: NotificationFeed;
  /** The DICOM listener's state (listening, port in use, stopped; last association; errors). */
  receiveStatus: () => ReceiveStatus;
  /** The log folder (the support bundle reads it back) and the desktop's way to show it. */
  logDir: string;
  folderOpener: FolderOpener;
  /** The proxy set in Settings → Network (its login in the keychain). */
  proxy: ProxySettings;
  /** The extra CA file set in Settings → Network. */
  caFile: CaFileSettings;
};

/** Saves a settings change; an invalid one becomes the contract's `invalid_args`, field by field. */
export function updateSettings(store: SettingsStore, patch: SettingsPatch): void {
  try {
    store.update(patch);
  } catch (e) {
    if (e instanceof SettingsValidationError)
      throw new ContractFailure(
        'invalid_args',
        'These settings are not valid.',
        e.issues.map((i) => ({ field: i.path || '(settings)', message: i.message })),
      );
    throw e;
  }
}

/** Checks a folder path from the window: absolute, existing, a folder. Returns it resolved. */
export async function checkFolder(path: string): Promise<string> {
  if (!isAbsolute(path))
    throw new ContractFailure('invalid_args', 'Give the full path of the folder.', [
      { field: 'path', message: 'must be an absolute path' },
    ]);
  const full = resolve(path);
  let isDir: boolean;
  try {
    isDir = (await stat(full)).isDirectory();
  } catch {
    throw new ContractFailure('folder_not_found', 'This folder does not exist or cannot be read.', [
      { field: 'path', message: 'not found' },
    ]);
  }
  if (!isDir)
    throw new ContractFailure('not_a_folder', 'This path is a file, not a folder.', [
      { field: 'path', message: 'not a folder' },
    ]);
  return full;
}
