// What the rest of the agent does when the queue reports on a job: the inbox item's status, the OS
// notification, the activity a headless front end prints, and the exam recorder's done marker,
// ledger and share claim.
import type { UploadJobView } from '../../../preload/contract';
import type { UploadNotify } from './host/upload-notices';
import type { Inbox } from './inbox/inbox';
import type { ActivityHub, JobOrigin } from './pipeline/agent-activity';
import type { ExamRecorder } from './pipeline/exam-recorder';
import type { QueueHooks } from './queue/upload-queue';

type HookInbox = Pick<Inbox, 'has' | 'get' | 'setStatus'>;

/** The watch folder and export a job's study came from, when it came through the inbox. */
export function jobOrigin(inbox: Pick<Inbox, 'has' | 'get'>, view: UploadJobView): JobOrigin {
  if (!view.inbox_id || !inbox.has(view.inbox_id)) return null;
  const item = inbox.get(view.inbox_id);
  return { folderId: item.folder_id, exportPath: item.export_path, study_uid: item.study_uid };
}

export type QueueHookDeps = {
  inbox: HookInbox;
  recorder: Pick<ExamRecorder, 'ready' | 'ended'>;
  activity: Pick<ActivityHub, 'emit'>;
  notify: UploadNotify;
  /** Share-on-ready: the e-mails the uploads asked for (share-on-ready.ts). */
  shares: { sweep(): Promise<void> };
};

export function queueHooks(o: QueueHookDeps): QueueHooks {
  const { inbox, recorder, activity, notify, shares } = o;
  const originOf = (view: UploadJobView): JobOrigin => jobOrigin(inbox, view);
  return {
    async onReady(view, info) {
      if (view.inbox_id && inbox.has(view.inbox_id)) inbox.setStatus(view.inbox_id, 'uploaded', view.id);
      notify('exam_ready', view);
      activity.emit('upload:ready', {
        view,
        origin: originOf(view),
        files: info.result.files,
        bytes: info.result.bytes,
      });
      await recorder.ready(view, { ledger: info.ledger, result: info.result });
      // The exam's e-mail, if its upload asked for one (not awaited: the queue goes on meanwhile).
      void shares.sweep();
    },
    onEnded(view, info) {
      activity.emit('upload:ended', { view, origin: originOf(view) });
      // Superseded: the upload of the study's new files follows at once and keeps the claim.
      if (info.superseded) return;
      void recorder.ended(view);
      // Back to the inbox, so staff can correct and upload again.
      if (view.inbox_id && inbox.has(view.inbox_id)) inbox.setStatus(view.inbox_id, 'review', null);
      if (view.phase === 'failed') notify('upload_failed', view);
    },
    onRetryWait(view) {
      activity.emit('upload:retrying', { view, origin: originOf(view) });
    },
    onStruggling(view) {
      activity.emit('upload:struggling', { view, origin: originOf(view) });
      notify('upload_retrying', view);
    },
  };
}
