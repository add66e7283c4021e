// Watching one configured folder for scanner exports and telling when each export is complete.
//
// An export is a top-level sub-folder of the watched folder (scanners write one folder per
// study or per session, often with sub-folders). Files lying directly in the watched folder form
// one more export, the "loose files" export, whose path is the watched folder itself; scanning
// it groups its files into studies like any other export.
//
// chokidar only tells that something happened; completeness is decided here:
//   1. quiet: no file event and no observed change for the settle period;
//   2. stable: two consecutive snapshots (every file's size and mtime) are equal;
//   3. whole: a scan finds no truncated or unreadable file, no Pixel Data running past the end of
//      its file, no compressed image without its closing delimiter and no fewer files than a
//      DICOMDIR lists — and the export is unchanged after the scan.
// chokidar's `awaitWriteFinish` is not used: it proves only that one file stopped growing (not
// that the export has all its files), it polls every new file on its own timer (costly with
// thousands of slices on a share), and it hides the change events this class uses as activity.
//
// An export reported ready and then changed (more files arrive) is checked again and reported
// with `export:changed` and a higher revision, never a second `export:ready`; the consumer compares
// the studies with its ledger to see what is new.
import { FSWatcher } from 'chokidar';
import { EventEmitter } from 'node:events';
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { canonicalFolder } from '../folder-identity';
import { groupProbes, readDicomHeader, scanFolder } from '../dicom';
import type { FileProbe, ScanResult } from '../dicom';
import { incompleteReasons } from './completeness';
import type { Snapshot } from './snapshot';
import { isMarkerFile, MARKER_PREFIX, takeSnapshot } from './snapshot';
import type { FolderWatcherEvents, IncompleteReason, WatchFolderConfig } from './watch-types';

export type FolderWatcherOptions = {
  /** Poll interval when `polling` is on (ms); DICOM files are polled at 1.5× this. */
  pollIntervalMs?: number;
  /** How often an export that is quiet but not whole is looked at again without any event (ms). */
  recheckIncompleteMs?: number;
};

const DEFAULT_POLL_MS = 2000;

const isFolder = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** Whether any of `paths` can now be opened and read. */
async function anyReadable(paths: readonly string[]): Promise<boolean> {
  for (const path of paths) {
    try {
      const handle = await open(path, 'r');
      try {
        await handle.read(Buffer.alloc(1), 0, 1, 0);
        return true;
      } finally {
        await handle.close();
      }
    } catch {
      // Still held, or still not ours to read.
    }
  }
  return false;
}

/** The folder's device and inode ("dev:ino"), or null when it is not a folder there. */
const identityOf = (path: string): Promise<string | null> =>
  stat(path).then(
    (s) => (s.isDirectory() ? `${s.dev}:${s.ino}` : null),
    () => null,
  );

type Candidate = {
  /** The top-level folder name, or '' for the loose files of the watched folder. */
  key: string;
  path: string;
  snapshot: Snapshot | undefined;
  /** Time of the last event or observed change. */
  lastActivity: number;
  timer: NodeJS.Timeout | undefined;
  checking: boolean;
  /** An event arrived during a check: check again afterwards. */
  dirty: boolean;
  /** The snapshot key last judged (ready, waiting or holding no study), so it is not scanned again. */
  judgedKey: string | undefined;
  waitingSignature: string | undefined;
  /** Files the last judgement could not read (held open by another program, no permission). */
  unreadable: string[];
  revision: number;
};

/** Watches one folder and emits `export:ready` once per complete export (see the file comment). */
export class FolderWatcher extends EventEmitter<FolderWatcherEvents> {
  readonly root: string;
  private readonly settleMs: number;
  private readonly stepMs: number;
  private readonly pollMs: number;
  private readonly recheckMs: number;
  private readonly candidates = new Map<string, Candidate>();
  private watcher: FSWatcher | undefined;
  /** Looks for a watched folder that was not there at start-up, or went away. */
  private appearTimer: NodeJS.Timeout | undefined;
  /** While watching: checks that the folder is still there, and still the same one (share-presence). */
  private presenceTimer: NodeJS.Timeout | undefined;
  private identity: string | undefined;
  private presenceInFlight = false;
  /** When the folder was found gone (null while it is there). */
  private lostSince: Date | null = null;
  private looking = false;
  private closed = false;
  private scanning: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    readonly config: WatchFolderConfig,
    options: FolderWatcherOptions = {},
  ) {
    super();
    // The OS's name for the folder: export paths then agree with any other spelling's (folder-identity.ts).
    this.root = canonicalFolder(config.path);
    this.settleMs = Math.max(0, config.settle_seconds * 1000);
    // Snapshots every half settle period: an export is seen ready between 1 and 1.5 settle periods after its last write.
    this.stepMs = Math.min(Math.max(this.settleMs / 2, 100), 5000);
    this.pollMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
    this.recheckMs = options.recheckIncompleteMs ?? Math.max(30_000, this.settleMs * 3);
  }

  /**
   * Starts watching; exports already present are found too. Resolves once the initial listing is
   * done. A folder that is not there yet (a network share mounted later) is looked for every poll
   * interval and watched as soon as it appears (`folder:appeared`).
   */
  async start(): Promise<void> {
    if (this.watcher || this.appearTimer) return;
    if (!(await isFolder(this.root))) {
      this.report(new Error(`${this.root} is not there yet; it is watched as soon as it appears`));
      this.lostSince = new Date();
      this.emit('folder:lost', { folderId: this.config.id, path: this.root, since: this.lostSince.toISOString() });
      this.appearTimer = setInterval(() => void this.lookForFolder(), this.pollMs);
      this.emit('ready');
      return;
    }
    await this.watch();
    if (!this.closed) this.emit('ready');
  }

  private async lookForFolder(): Promise<void> {
    if (this.looking || this.closed || !(await isFolder(this.root))) return;
    this.looking = true;
    clearInterval(this.appearTimer);
    this.appearTimer = undefined;
    try {
      await this.watch();
      const since = this.lostSince;
      this.lostSince = null;
      if (!this.closed)
        this.emit('folder:appeared', {
          folderId: this.config.id,
          path: this.root,
          lostSince: since?.toISOString() ?? null,
        });
    } catch (e) {
      this.report(e);
    } finally {
      this.looking = false;
    }
  }

  /**
   * A watched folder on a share may go away (unmounted, the share dropped, renamed away) and come
   * back, often as a new mount whose changes the old watch never sees (inotify follows the old
   * folder). Every poll interval the folder is looked at: gone, or another folder now at its path,
   * and it is reported (`folder:lost`), no longer watched, looked for, and watched again when it
   * returns; the listing then finds what arrived meanwhile.
   */
  private async checkPresence(): Promise<void> {
    if (this.closed || this.lostSince || this.looking || this.presenceInFlight) return;
    // One look at a time: a stat on a share that stopped answering may take long.
    this.presenceInFlight = true;
    const now = await identityOf(this.root).finally(() => (this.presenceInFlight = false));
    if (this.closed || this.lostSince || this.looking) return;
    if (now !== null && now === this.identity) return;
    this.lostSince = new Date();
    clearInterval(this.presenceTimer);
    this.presenceTimer = undefined;
    const watcher = this.watcher;
    this.watcher = undefined;
    // Not awaited: closing the watch of a folder renamed away can wait on chokidar's own polling.
    void watcher?.close().catch(() => undefined);
    if (this.closed) return;
    this.emit('folder:lost', { folderId: this.config.id, path: this.root, since: this.lostSince.toISOString() });
    // Not unref'd: while the folder is away this timer is the watch, and keeps `scanbridge watch` running.
    this.appearTimer = setInterval(() => void this.lookForFolder(), this.pollMs);
    // Another folder already stands at the path (remounted between two looks): watched at once.
    if (now !== null) void this.lookForFolder();
  }

  private async watch(): Promise<void> {
    const watcher = new FSWatcher({
      ignoreInitial: false,
      persistent: true,
      followSymlinks: true,
      ignorePermissionErrors: true,
      usePolling: this.config.polling,
      interval: this.pollMs,
      binaryInterval: Math.round(this.pollMs * 1.5),
      ignored: (path: string) => isMarkerFile(path),
    });
    this.watcher = watcher;
    const ready = new Promise<void>((res) => watcher.once('ready', () => res()));
    watcher.on('all', (event, path) => this.onEvent(event, path));
    watcher.on('error', (e) => this.report(e));
    this.identity = (await identityOf(this.root)) ?? undefined;
    watcher.add(this.root);
    await ready;
    clearInterval(this.presenceTimer);
    this.presenceTimer = setInterval(() => void this.checkPresence(), this.pollMs);
    this.presenceTimer.unref?.();
    // Events can be coalesced on some file systems: list the top level once more so no export is missed.
    await this.seedFromListing();
  }

  /** Stops watching and waits for checks in progress to finish. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.appearTimer) clearInterval(this.appearTimer);
    if (this.presenceTimer) clearInterval(this.presenceTimer);
    for (const c of this.candidates.values()) if (c.timer) clearTimeout(c.timer);
    await this.watcher?.close();
    await Promise.allSettled([...this.inFlight]);
  }

  private async seedFromListing(): Promise<void> {
    try {
      for (const entry of await readdir(this.root, { withFileTypes: true })) {
        if (entry.name.startsWith(MARKER_PREFIX)) continue;
        this.touch(entry.isDirectory() ? entry.name : '', false);
      }
    } catch (e) {
      this.report(new Error(`cannot list ${this.root}: ${e instanceof Error ? e.message : String(e)}`));
    }
  }

  /** An 'error' event without a listener would throw; a watcher problem must never crash the agent. */
  private report(e: unknown): void {
    if (this.listenerCount('error') > 0) this.emit('error', e instanceof Error ? e : new Error(String(e)));
  }

  private onEvent(event: string, path: string): void {
    const rel = relative(this.root, path);
    if (rel === '' || rel.startsWith('..')) return;
    const parts = rel.split(sep);
    const top = parts[0] as string;
    const isTopLevelFile = parts.length === 1 && (event === 'add' || event === 'change' || event === 'unlink');
    this.touch(isTopLevelFile ? '' : top, true);
  }

  private touch(key: string, activity: boolean): void {
    if (this.closed) return;
    let c = this.candidates.get(key);
    if (!c) {
      c = {
        key,
        path: key === '' ? this.root : join(this.root, key),
        snapshot: undefined,
        lastActivity: Date.now(),
        timer: undefined,
        checking: false,
        dirty: false,
        judgedKey: undefined,
        waitingSignature: undefined,
        unreadable: [],
        revision: 0,
      };
      this.candidates.set(key, c);
    }
    if (activity) c.lastActivity = Date.now();
    if (c.checking) c.dirty = true;
    else this.schedule(c, this.stepMs);
  }

  private schedule(c: Candidate, delayMs: number): void {
    if (this.closed) return;
    if (c.timer) clearTimeout(c.timer);
    c.timer = setTimeout(() => {
      c.timer = undefined;
      const run = this.check(c);
      this.inFlight.add(run);
      void run.finally(() => this.inFlight.delete(run));
    }, delayMs);
  }

  private async check(c: Candidate): Promise<void> {
    if (this.closed) return;
    c.checking = true;
    c.dirty = false;
    let next: number | undefined;
    try {
      next = await this.evaluate(c);
    } catch (e) {
      this.report(e);
      next = this.recheckMs;
    } finally {
      c.checking = false;
    }
    if (this.closed || !this.candidates.has(c.key)) return;
    if (c.dirty) next = this.stepMs;
    if (next !== undefined) this.schedule(c, next);
  }

  /** One look at an export; answers when to look again (undefined: only on the next event). */
  private async evaluate(c: Candidate): Promise<number | undefined> {
    const snap = await takeSnapshot(c.path, c.key !== '');
    if (!snap) {
      this.candidates.delete(c.key);
      // The whole watched folder went (a share dropped): its exports are not removed, only out of reach.
      if (this.lostSince || (await identityOf(this.root)) !== this.identity) return undefined;
      if (c.revision > 0 || c.waitingSignature !== undefined)
        this.emit('export:removed', { folderId: this.config.id, exportPath: c.path });
      return undefined;
    }
    const now = Date.now();
    if (c.snapshot?.key !== snap.key) {
      c.snapshot = snap;
      c.lastActivity = now;
      return this.stepMs;
    }
    const quietFor = now - c.lastActivity;
    if (quietFor < this.settleMs) return Math.max(this.settleMs - quietFor, 50);
    if (c.judgedKey === snap.key) {
      if (c.waitingSignature === undefined) return undefined;
      // A file another program held open (the scanner's software, an antivirus) is often released
      // with its size and mtime unchanged: judge again as soon as one of them reads.
      if (!(await anyReadable(c.unreadable))) return this.recheckMs;
    }
    if (snap.files.size === 0) {
      c.judgedKey = snap.key;
      return undefined;
    }

    const scan = await this.serialized(() => this.scan(c));
    if (this.closed) return undefined;
    if (!scan) {
      c.lastActivity = Date.now();
      return this.stepMs;
    }
    const reasons: IncompleteReason[] = await incompleteReasons(scan, snap);
    const after = await takeSnapshot(c.path, c.key !== '');
    if (this.closed) return undefined;
    if (!after || after.key !== snap.key || reasons.some((r) => r.kind === 'changed_while_checking')) {
      c.snapshot = after ?? undefined;
      c.lastActivity = Date.now();
      return this.stepMs;
    }
    c.judgedKey = snap.key;
    // Only the key is compared from now on: keep no per-file state for exports already judged.
    c.snapshot = { key: snap.key, files: new Map() };
    c.unreadable = reasons.flatMap((r) => (r.kind === 'unreadable_file' ? [r.path] : []));
    if (reasons.length > 0) {
      const signature = JSON.stringify(reasons);
      if (signature !== c.waitingSignature) {
        c.waitingSignature = signature;
        this.emit('export:waiting', {
          folderId: this.config.id,
          exportPath: c.path,
          reasons,
          studies: scan.studies,
          skipped: scan.skipped.filter((s) => !isMarkerFile(s.path)),
        });
      }
      return this.recheckMs;
    }
    c.waitingSignature = undefined;
    if (scan.studies.length === 0) return undefined;
    c.revision++;
    const payload = {
      folderId: this.config.id,
      exportPath: c.path,
      studies: scan.studies,
      skipped: scan.skipped.filter((s) => !isMarkerFile(s.path)),
      revision: c.revision,
    };
    this.emit(c.revision === 1 ? 'export:ready' : 'export:changed', payload);
    return undefined;
  }

  /** Scans run one at a time per watched folder: the reader already uses every core. */
  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.scanning.then(fn, fn);
    this.scanning = run.catch(() => undefined);
    return run;
  }

  private async scan(c: Candidate): Promise<ScanResult | null> {
    try {
      if (c.key !== '') return await scanFolder(c.path);
      // Loose files: only the watched folder's own files, not its sub-folders (other exports).
      const names = (await readdir(c.path, { withFileTypes: true })).filter(
        (e) => e.isFile() && !e.name.startsWith(MARKER_PREFIX),
      );
      const probes: FileProbe[] = [];
      for (const e of names) probes.push(await readDicomHeader(join(c.path, e.name)));
      return groupProbes(c.path, probes);
    } catch {
      // The folder vanished or changed under the scan: the next snapshot decides.
      return null;
    }
  }
}
