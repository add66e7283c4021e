// The upload queue as the agent opens it: its list kept in the agent's state folder, the service's
// ports for the key in use, the saved upload settings, its changes pushed as `uploads:state`.
import type { Events } from '../../../preload/contract';
import { definedFields } from '../defined';
import type { SettingsStore } from '../settings';
import type { Logger } from '../log';
import type { ServiceConnection } from './service/service-connection';
import { servicePorts } from './service-ports';
import type { QueueHooks, UploadQueueOptions } from './queue/upload-queue';
import { UploadQueue } from './queue/upload-queue';
import { sweepOrphanArchives } from '../upload/job';

export type QueueTuning = { uploadsBatchMs?: number } & Pick<
  UploadQueueOptions,
  'retryDelaysMs' | 'engine' | 'quietMs'
>;

export function openAgentQueue(o: {
  file: string;
  dataDir: string;
  service: Pick<ServiceConnection, 'client'>;
  settingsStore: Pick<SettingsStore, 'get'>;
  push: (changed: Events['uploads:state']) => void;
  hooks: QueueHooks;
  log: Logger;
  tuning: QueueTuning;
}): Promise<UploadQueue> {
  // Compressed archives a crash left behind with no job to send them (they hold patient images).
  sweepOrphanArchives(o.dataDir);
  return UploadQueue.open({
    file: o.file,
    dataDir: o.dataDir,
    ...servicePorts(o.service),
    settings: () => {
      const u = o.settingsStore.get().upload;
      return {
        concurrency: u.concurrency,
        bandwidthLimit: u.bandwidth_limit_bytes_per_s,
        mode: u.mode,
        compress: u.compress,
      };
    },
    push: o.push,
    hooks: o.hooks,
    log: o.log,
    ...(o.tuning.uploadsBatchMs !== undefined ? { batchMs: o.tuning.uploadsBatchMs } : {}),
    ...definedFields(o.tuning, ['retryDelaysMs', 'engine', 'quietMs']),
  });
}
