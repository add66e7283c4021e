// Where the agent's studies come from: the watch folders and the DICOM listener, built on the same
// inbox, queue, recorder and ledger, and applied again whenever the settings change.
import type { Settings as StoredSettings } from '../settings';
import { definedFields } from '../defined';
import type { ReceiveConfig } from '../receive';
import type { FolderWatcherOptions, Ledger, WatchFolderConfig } from '../watch';
import type { Logger } from '../log';
import type { Inbox } from './inbox/inbox';
import type { ActivityHub } from './pipeline/agent-activity';
import type { ExamRecorder } from './pipeline/exam-recorder';
import { Receivers, receiveConfigOf } from './pipeline/receivers';
import { Watchers } from './pipeline/watchers';
import type { UploadQueue } from './queue/upload-queue';
import { errorCode } from '../log';

export type StudySources = {
  watchers: Watchers;
  receivers: Receivers;
  /** Applies the settings (or the front end's fixed folders and listener) to both. */
  apply(s: StoredSettings): void;
  /** Settles once the listener's last configuration is applied (listening, or failed in words). */
  receiverApplied(): Promise<void>;
};

export function openStudySources(o: {
  dataDir: string;
  ledger: Ledger;
  inbox: Inbox;
  queue: UploadQueue;
  recorder: ExamRecorder;
  agentId: string;
  log: Logger;
  activity: ActivityHub;
  folders: WatchFolderConfig[] | undefined;
  receiver: ReceiveConfig | null | undefined;
  tuning: { watcher?: FolderWatcherOptions; heldRetryMs?: number };
}): StudySources {
  const { dataDir, ledger, inbox, queue, recorder, agentId, log, activity } = o;
  const tuning = definedFields(o.tuning, ['watcher', 'heldRetryMs']);
  const watchers = new Watchers({ ledger, inbox, queue, recorder, agentId, log, activity, ...tuning });
  const receivers = new Receivers({ dataDir, ledger, inbox, queue, recorder, agentId, log, activity });
  const failed =
    (task: string) =>
    (e: unknown): void =>
      log.warn('study sources could not be applied', { task, code: errorCode(e) });
  let applied: Promise<void> = Promise.resolve();
  return {
    watchers,
    receivers,
    apply(s) {
      watchers.apply(o.folders ?? s.watch_folders).catch(failed('watch folders could not start'));
      const config = o.receiver !== undefined ? o.receiver : receiveConfigOf(s.dicom_listener);
      applied = receivers.apply(config).catch(failed('dicom listener could not start'));
    },
    receiverApplied: () => applied,
  };
}
