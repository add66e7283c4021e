// A detected study's way in, the same for a watched folder and the DICOM listener: into the inbox;
// in auto mode, on to the queue at once (with the study's claim held until its upload ends).
import type { ReceivedFromView } from '../../../../preload/contract';
import type { DetectedStudy } from '../../watch';
import type { ActivityHub } from './agent-activity';
import type { ExamRecorder } from './exam-recorder';
import type { Inbox } from '../inbox/inbox';
import type { UploadQueue } from '../queue/upload-queue';

export type IntakeDeps = { inbox: Inbox; queue: UploadQueue; recorder: ExamRecorder; activity: ActivityHub };

/** Hands a detected study on: inbox, then (auto) the queue. Throws when it could not be queued. */
export async function takeInStudy(d: DetectedStudy, o: IntakeDeps, receivedFrom?: ReceivedFromView): Promise<void> {
  const { inbox, queue, recorder } = o;
  const auto = d.action === 'auto';
  const item = inbox.detected(
    {
      folder: d.folder,
      exportPath: d.exportPath,
      study: d.study,
      skipped: d.skipped,
      changedSinceUpload: d.changedFrom !== null,
      ...(receivedFrom ? { receivedFrom } : {}),
    },
    auto ? 'queued' : 'review',
  );
  if (!auto) return;
  if (!item) {
    await d.claim?.release();
    return;
  }
  try {
    const request = await inbox.uploadRequest(item.id, 'auto');
    const view = await queue.enqueue(request);
    if (d.claim) recorder.hold(item.id, d.claim, () => void queue.standDown(item.id));
    inbox.setStatus(item.id, 'queued', view.id);
    o.activity.emit('study:queued', {
      folderId: d.folder.id,
      exportPath: d.exportPath,
      study: d.study,
      exam_type: d.exam_type,
      job_id: view.id,
    });
  } catch (e) {
    // The study's claim: this one, or the one kept from an upload of its earlier files.
    await (d.claim ? d.claim.release() : recorder.release(item.id));
    inbox.setStatus(item.id, 'review', null);
    throw e;
  }
}
