// The watcher as the agent runs it: one FolderWatcher per configured folder feeding one study
// router, over one ledger.
import type { FolderWatcherOptions } from './folder-watcher';
import { FolderWatcher } from './folder-watcher';
import type { StudyRouterOptions } from './study-router';
import { StudyRouter } from './study-router';
import type { WatchFolderConfig } from './watch-types';

export type WatchServiceOptions = StudyRouterOptions & { folders: WatchFolderConfig[]; watcher?: FolderWatcherOptions };

/** Watches every configured folder and reports the studies of complete exports. */
export class WatchService {
  readonly router: StudyRouter;
  readonly watchers: FolderWatcher[];

  constructor(options: WatchServiceOptions) {
    this.router = new StudyRouter(options);
    this.watchers = options.folders.map((folder) => {
      const w = new FolderWatcher(folder, options.watcher);
      w.on('export:ready', (ready) => this.router.offer(folder, ready));
      w.on('export:changed', (ready) => this.router.offer(folder, ready));
      return w;
    });
  }

  /** Starts every watcher; resolves when each has listed what its folder already holds. */
  async start(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.start()));
  }

  /** Stops watching (uploads are the agent's: they go on or stop with it). */
  async close(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.close()));
    await this.router.close();
  }
}
