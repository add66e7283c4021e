// The DICOM listener, running for the agent: one ReceiveService (core/receive), restarted when its
// port changes, and one study router over the same ledger as the folders. A complete received
// study's folder is scanned like an export and goes the way a folder study goes (study-intake.ts):
// the same ledger (a study sent again makes no second exam), the same prefill and exam-type rules,
// auto or review per the listener's mode. Its Inbox item names the sender.
import { join } from 'node:path';
import type { ReceivedFromView, ReceiveStatus } from '../../../../preload/contract';
import { scanFolder } from '../../dicom';
import { Emitter } from '../../emitter';
import type { ReceiveConfig, ReceivedStudy } from '../../receive';
import { ReceiveService } from '../../receive';
import type { DicomListenerSettings } from '../../settings/settings-schema';
import type { Ledger, WatchFolderConfig } from '../../watch';
import { StudyRouter } from '../../watch';
import type { Logger } from '../../log';
import type { ActivityHub } from './agent-activity';
import { type IntakeDeps, takeInStudy } from './study-intake';
import { errorCode, studyHash } from '../../log';

/** The `folder_id` of received studies in the inbox and the activity. */
export const RECEIVER_FOLDER_ID = 'dicom-listener';

export type ReceiversOptions = IntakeDeps & {
  dataDir: string;
  ledger: Ledger;
  agentId: string;
  log: Logger;
  activity: ActivityHub;
  heldRetryMs?: number;
};

/** The listener's configuration from the settings, or null when it is off. */
export function receiveConfigOf(s: DicomListenerSettings): ReceiveConfig | null {
  if (!s.enabled) return null;
  return {
    aeTitle: s.ae_title.trim(),
    port: s.port,
    allowed: s.allowed_senders,
    examType: s.exam_type,
    quietSeconds: s.quiet_seconds,
    stoppedAfterMinutes: s.stopped_after_minutes,
    mode: s.mode,
  };
}

const STOPPED = (aeTitle: string): ReceiveStatus => ({
  state: 'stopped',
  port: null,
  ae_title: aeTitle,
  problem: null,
  message: null,
  last_association: null,
  errors: [],
});

const codeOf = errorCode;

export class Receivers {
  private service: ReceiveService | null = null;
  private router: StudyRouter | null = null;
  private config: ReceiveConfig | null = null;
  private applying: Promise<void> = Promise.resolve();
  private current: ReceiveStatus = STOPPED('SCANBRIDGE');
  private readonly sources = new Map<string, ReceivedFromView>();
  readonly onStatus = new Emitter<[ReceiveStatus]>();

  constructor(private readonly o: ReceiversOptions) {}

  status(): ReceiveStatus {
    return this.current;
  }

  /** Runs the listener with this configuration (null: stopped). Resolves once it listens or failed to. */
  apply(config: ReceiveConfig | null): Promise<void> {
    const next = this.applying.then(() => this.applyNow(config));
    this.applying = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.applying;
    await this.stopService();
  }

  private async applyNow(config: ReceiveConfig | null): Promise<void> {
    const old = this.config;
    this.config = config;
    if (config && this.service && old && old.port === config.port && old.host === config.host) {
      this.service.reconfigure(config);
      return;
    }
    await this.stopService();
    if (!config) return;
    const service = new ReceiveService({
      root: join(this.o.dataDir, 'receive'),
      config,
      log: this.o.log,
    });
    const router = new StudyRouter({
      ledger: this.o.ledger,
      claims: { agentId: this.o.agentId },
      ...(this.o.heldRetryMs !== undefined ? { heldRetryMs: this.o.heldRetryMs } : {}),
    });
    this.wire(service, router);
    this.service = service;
    this.router = router;
    try {
      await service.start();
    } catch (e) {
      this.o.log.warn('dicom listener could not start', { port: config.port, code: errorCode(e) });
      this.service = null;
      this.router = null;
      await router.close();
    }
  }

  private async stopService(): Promise<void> {
    const { service, router } = this;
    this.service = null;
    this.router = null;
    await service?.close();
    await router?.close();
    if (!service) this.publish(STOPPED(this.config?.aeTitle ?? this.current.ae_title));
  }

  private publish(status: ReceiveStatus): void {
    this.current = status;
    this.onStatus.emit(status);
  }

  private folder(root: string): WatchFolderConfig {
    const c = this.config;
    return {
      id: RECEIVER_FOLDER_ID,
      path: root,
      exam_type: c?.examType ?? 'from_dicom',
      mode: c?.mode ?? 'review',
      settle_seconds: Math.max(1, Math.round(c?.quietSeconds ?? 30)),
      polling: false,
    };
  }

  private wire(service: ReceiveService, router: StudyRouter): void {
    const { log, activity } = this.o;
    service.on('state', (s) => this.publish({ ...s }));
    service.on('study:complete', (e) => void this.received(e, router));
    service.on('study:stopped', (e) => void this.received(e, null));
    router.on('study:detected', (d) => {
      takeInStudy(d, this.o, this.sources.get(d.exportPath)).catch((e: unknown) => {
        const error = e instanceof Error ? e : new Error(String(e));
        log.warn('dicom listener: a received study could not be queued', {
          study: studyHash(d.study.study_uid),
          code: codeOf(error),
        });
        activity.emit('study:failed', {
          folderId: RECEIVER_FOLDER_ID,
          exportPath: d.exportPath,
          study: d.study,
          error,
        });
      });
    });
    router.on('study:skipped', (e) => activity.emit('study:skipped', e));
    router.on('study:held', (e) => activity.emit('study:held', e));
    router.on('study:failed', (e) => {
      log.warn('dicom listener: a received study could not be checked', { code: codeOf(e.error) });
      activity.emit('study:failed', e);
    });
    router.on('study:unclaimable', (e) => activity.emit('study:unclaimable', e));
  }

  /**
   * A received study's folder, scanned like an export. Complete (router given): on to the router.
   * The sender stopped (no router): into the inbox for review, marked so, never uploaded by itself.
   */
  private async received(e: ReceivedStudy, router: StudyRouter | null): Promise<void> {
    try {
      const result = await scanFolder(e.folder);
      const studies = result.studies.filter((s) => s.study_uid === e.study_uid);
      const from: ReceivedFromView = { ...e.from, sender_stopped: e.stopped };
      this.sources.set(e.folder, from);
      const folder = this.folder(join(e.folder, '..'));
      if (router) {
        router.offer(folder, {
          folderId: folder.id,
          exportPath: e.folder,
          studies,
          skipped: result.skipped,
          revision: 1,
        });
        return;
      }
      for (const study of studies)
        this.o.inbox.detected(
          {
            folder,
            exportPath: e.folder,
            study,
            skipped: result.skipped,
            changedSinceUpload: false,
            receivedFrom: from,
          },
          'review',
        );
    } catch (err) {
      this.o.log.warn('dicom listener: a received study could not be read', {
        study: studyHash(e.study_uid),
        code: codeOf(err),
      });
    }
  }
}
