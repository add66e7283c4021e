// Share-on-ready in the app: after every exam that becomes ready, and once at start-up (an agent
// killed between "ready" and "shared" owes that e-mail), the intents journaled with recent uploads
// (upload/share-intents.ts) are delivered through the outbox (handover/share-on-ready.ts), which
// sends each exam's e-mail once. What happened is shown on the exam's Summary (share:on-ready).
import type { ShareOnReadyView } from '../../../preload/contract';
import { ShareOutbox, type ShareRecord } from '../handout/share-on-ready';
import { readyShareIntents } from '../upload/state';
import type { Logger } from '../log';
import type { ServiceConnection } from './service/service-connection';
import { errorCode } from '../log';

/** Intents older than this are left alone (a journal restored from a backup must not e-mail anyone). */
const LOOK_BACK_MS = 7 * 86_400_000;

export type ShareOnReady = {
  /** Delivers every e-mail still owed; never throws (failures are logged, tried again next time). */
  sweep(): Promise<void>;
  status(examId: string): Promise<ShareOnReadyView | null>;
};

export function viewOfShare(r: ShareRecord): ShareOnReadyView {
  return { state: r.state, to: r.to, at: r.done_at ?? r.started_at, reason: r.reason };
}

export function openShareOnReady(o: {
  dataDir: string;
  service: Pick<ServiceConnection, 'client'>;
  log: Logger;
}): ShareOnReady {
  const outbox = new ShareOutbox(o.dataDir);
  let running: Promise<void> | null = null;
  let again = false;
  const once = async (): Promise<void> => {
    const client = o.service.client;
    if (!client) return;
    for (const intent of readyShareIntents(o.dataDir, Date.now() - LOOK_BACK_MS)) {
      try {
        await outbox.deliver(client, { exam_id: intent.exam_id, to: intent.to, locale: intent.locale });
      } catch (e) {
        // No address or patient in the log: the exam id and the kind of failure only.
        o.log.warn('exam e-mail could not be sent yet', { exam_id: intent.exam_id, code: errorCode(e) });
      }
    }
  };
  const sweep = (): Promise<void> => {
    // One sweep at a time; a request during one runs another right after it.
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await once();
      } while (again);
    })().finally(() => (running = null));
    return running;
  };
  return {
    sweep,
    status: async (examId) => {
      const r = await outbox.status(examId);
      return r ? viewOfShare(r) : null;
    },
  };
}
