// The OS notifications of the upload queue (ready, failed, keeps retrying), in the language the
// core's texts use. A host without a notification service still shows them in the window.
import type { Language, UploadJobView } from '../../../../preload/contract';
import { t } from '../../i18n';
import type { Notifier } from './host-ports';

export type UploadNotice = 'exam_ready' | 'upload_failed' | 'upload_retrying';
export type UploadNotify = (kind: UploadNotice, view: UploadJobView) => void;

export function uploadNotices(notifier: Notifier, language: () => Language): UploadNotify {
  return (kind, view) => {
    const lang = language();
    const title = t(lang, `core.notify.${kind}.title`);
    const body = t(lang, `core.notify.${kind}.body`, { name: view.name });
    try {
      notifier.notify({ kind: kind === 'exam_ready' ? 'exam_ready' : 'upload_failed', title, body, job_id: view.id });
    } catch {
      // No notification service: the window still shows it.
    }
  };
}
