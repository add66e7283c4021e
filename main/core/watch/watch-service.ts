// The watcher as the agent runs it: one FolderWatcher per configured folder feeding one upload
// coordinator, over one ledger.
import type { CoordinatorOptions } from './coordinator';
import { UploadCoordinator } from './coordinator';
import type { FolderWatcherOptions } from './folder-watcher';
import { FolderWatcher } from './folder-watcher';
import type { WatchFolderConfig } from './types';

export type WatchServiceOptions = CoordinatorOptions & { folders: WatchFolderConfig[]; watcher?: FolderWatcherOptions };

/** Watches every configured folder and uploads (or offers for review) the studies of complete exports. */
export class WatchService {
  readonly coordinator: UploadCoordinator;
  readonly watchers: FolderWatcher[];

  constructor(options: WatchServiceOptions) {
    this.coordinator = new UploadCoordinator(options);
    this.watchers = options.folders.map((folder) => {
      const w = new FolderWatcher(folder, options.watcher);
      w.on('export:ready', (ready) => this.coordinator.offer(folder, ready));
      w.on('export:changed', (ready) => this.coordinator.offer(folder, ready));
      return w;
    });
  }

  /** Starts every watcher; resolves when each has listed what its folder already holds. */
  async start(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.start()));
  }

  /** Stops watching and aborts the upload in progress (it resumes on the next start). */
  async close(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.close()));
    await this.coordinator.close();
  }
}
