// The agent's stop, run once however often it is asked for. Nothing new may start while the rest
// closes, so the background refreshes and the reactions to settings and status go first; the inbox
// is saved once the watchers, the queue and the recorder no longer change it, and the service goes
// last, when nothing calls it any more.
import { stopScanWorkers } from '../dicom';
import type { ConsentDesk } from '../consent/desk';
import type { AgentEvents } from './agent-events';
import type { PollScheduler } from './background/poll-scheduler';
import type { Inbox } from './inbox/inbox';
import type { ExamRecorder } from './pipeline/exam-recorder';
import type { Receivers } from './pipeline/receivers';
import type { Watchers } from './pipeline/watchers';
import type { UploadQueue } from './queue/upload-queue';
import type { ServiceConnection } from './service/service-connection';

export function agentShutdown(o: {
  stopBackground: () => void;
  poll: Pick<PollScheduler, 'stop'>;
  unsubscribeSettings: () => void;
  unsubscribeQueue: () => void;
  consent: Pick<ConsentDesk, 'close'>;
  watchers: Pick<Watchers, 'close'>;
  receivers: Pick<Receivers, 'close'>;
  queue: Pick<UploadQueue, 'close'>;
  recorder: Pick<ExamRecorder, 'releaseAll'>;
  push: Pick<AgentEvents, 'close'>;
  inbox: Pick<Inbox, 'flush'>;
  service: Pick<ServiceConnection, 'close'>;
}): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () => {
    stopped ??= (async () => {
      o.stopBackground();
      o.poll.stop();
      o.unsubscribeSettings();
      o.unsubscribeQueue();
      o.consent.close();
      await o.watchers.close();
      await o.receivers.close();
      await o.queue.close();
      await o.recorder.releaseAll();
      o.push.close();
      await o.inbox.flush();
      o.service.close();
      await stopScanWorkers();
    })();
    return stopped;
  };
}
