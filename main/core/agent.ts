// The agent: the composition root of the core. It builds the settings store, the keys, the
// service connection, the inbox, the upload queue and the folder watchers, keeps them in step
// when settings or keys change, and exposes the contract (`host`) to a transport: the Electron
// IPC wrappers (main/index.ts), the browser-mode server (`scanbridge serve`) or a test.
import { join } from 'node:path';
import type { AgentStatus, InboxItem, KeysStatus, Language, RateState, Settings, UploadJobView } from '../../preload/contract';
import { ActivityHub } from './agent/activity';
import type { JobOrigin } from './agent/activity';
import type { ContractHost, Logger } from './agent/contract';
import { createContractHost } from './agent/contract';
import { ChangeBatcher } from './agent/change-batcher';
import { EventHub } from './agent/event-hub';
import { ExamRecorder } from './agent/exam-recorder';
import { createHandlers } from './agent/handlers';
import { registerBackgroundTasks } from './agent/background';
import { Inbox } from './agent/inbox';
import { InboxStore } from './agent/inbox-store';
import { KeyManager } from './agent/keys';
import { systemLanguage as detectSystemLanguage, texts } from './agent/messages';
import { NotificationFeed } from './agent/notification-feed';
import type { PollClock } from './agent/poll-scheduler';
import { PollScheduler } from './agent/poll-scheduler';
import type { FolderPicker, Notifier } from './agent/ports';
import { logNotifier, noFolderPicker } from './agent/ports';
import { ServiceConnection } from './agent/service';
import type { EngineOptions } from './upload/engine';
import { UploadQueue } from './agent/upload-queue';
import { Watchers } from './agent/watchers';
import type { ApiClient } from './api';
import { APP_VERSION } from './api/user-agent';
import { ConsentDesk, pagePatientDisplay } from './consent/desk';
import type { PatientDisplayPort } from './consent/desk';
import { baseUrlOf, environmentCredentials } from './credentials';
import { stopScanWorkers } from './dicom';
import { securePrivateFolders } from './private-fs';
import type { SecretStore } from './secrets/secret-store';
import { importLegacyPreferences, openSettingsStore } from './settings';
import { resolveConfigDir } from './settings/paths';
import type { Settings as StoredSettings } from './settings';
import { examsPortFromClient } from './upload/api-port';
import { extraTakePort } from './upload/target';
import type { ExamsPort } from './upload/ports';
import type { FolderWatcherOptions, WatchFolderConfig } from './watch';
import { Ledger, newAgentId } from './watch';

export type { ActivityEvents, JobOrigin } from './agent/activity';
export type { ContractHost, Logger } from './agent/contract';
export type { FolderPicker, Notice, Notifier } from './agent/ports';
export type { PollClock, PollTask } from './agent/poll-scheduler';

export type AgentOptions = {
  /** The app data folder (inbox, upload journals, ledger): appDataDir() from core/paths in the app and CLI. */
  dataDir: string;
  /** Where the inbox and the upload list are kept (default `<dataDir>/agent`). */
  stateDir?: string;
  /** Watch exactly these folders instead of the saved ones (`scanbridge watch`); settings never change them. */
  folders?: WatchFolderConfig[];
  /** The settings folder (default: the settings module's, SCANBRIDGE_CONFIG_DIR or the OS convention). */
  configDir?: string;
  /** SCANBRIDGE_API_URL (overrides the saved address) and SCANBRIDGE_API_KEY (a key for this session only). */
  env?: NodeJS.ProcessEnv;
  /** The OS keychain in the app and CLI; an in-memory store only in tests. */
  secretStore: SecretStore;
  notifier?: Notifier;
  folderPicker?: FolderPicker;
  transport: 'ipc' | 'http';
  /** The patient display (a second window on the desktop); browser mode gives the page's address. */
  patientDisplay?: PatientDisplayPort;
  /** Browser mode: the server's origin, for the patient page's address (known once it listens). */
  patientPageOrigin?: () => string | null;
  /** The OS language (Electron's app.getLocale()); guessed from the environment otherwise. */
  systemLanguage?: Language;
  log?: Logger;
  /** Timers, shortened by tests. */
  tuning?: {
    uploadsBatchMs?: number;
    inboxBatchMs?: number;
    retryDelaysMs?: readonly number[];
    engine?: Omit<EngineOptions, 'concurrency' | 'bucket' | 'bandwidthLimit'>;
    watcher?: FolderWatcherOptions;
    heldRetryMs?: number;
    /** The background scheduler's clock (the polling-budget test runs it in step with the emulator's --time-scale). */
    pollClock?: PollClock;
  };
};

export type { AgentStatus };

export type Agent = {
  /** The contract, for a transport. */
  host: ContractHost;
  /** Informed consent: the bridge asks it which session a patient page's token belongs to. */
  consent: ConsentDesk;
  /** The settings as the window sees them. */
  settings(): Settings;
  /** The language the core's own texts use (notifications, tray). */
  language(): Language;
  /** Upload status for the tray icon. */
  status(): AgentStatus;
  onStatus(listener: (status: AgentStatus) => void): () => void;
  /** What the watchers found and how uploads ended, for a headless front end. */
  activity: ActivityHub;
  /** Where the settings file is (tests check that it never holds a key). */
  settingsFile: string;
  /**
   * The background scheduler: other services register their periodic refreshes here (see
   * poll-scheduler.ts), never with a timer of their own.
   */
  poll: PollScheduler;
  /** Stops watching and uploading (uploads resume on the next start) and saves everything. */
  stop(): Promise<void>;
};

/** A logger on stderr (stdout belongs to the CLI's machine-readable output). Never give it patient data. */
export function stderrLogger(prefix = 'scanbridge'): Logger {
  const line = (level: string, m: string): void => void process.stderr.write(`${new Date().toISOString()} ${prefix} ${level}: ${m}\n`);
  return { info: (m) => line('info', m), warn: (m) => line('warn', m), error: (m) => line('error', m) };
}

/** Builds and starts the agent. Watchers start in the background; uploads left unfinished resume. */
export async function startAgent(options: AgentOptions): Promise<Agent> {
  const env = options.env ?? process.env;
  const log = options.log ?? stderrLogger();
  const systemLanguage = options.systemLanguage ?? detectSystemLanguage(env);
  const agentDir = options.stateDir ?? join(options.dataDir, 'agent');
  const events = new EventHub();
  const activity = new ActivityHub();
  const agentId = newAgentId();

  // Patient data stays private: folders 0700, files 0600, older ones tightened (core/private-fs.ts).
  securePrivateFolders([options.dataDir, resolveConfigDir({ ...(options.configDir ? { cwd: options.configDir } : {}), env })]);
  const settingsStore = openSettingsStore({ ...(options.configDir ? { cwd: options.configDir } : {}), env });
  if (settingsStore.problems.length > 0) log.warn(`settings: fell back to defaults for ${settingsStore.problems.join(', ')}`);
  // Settings before version 2 kept the inbox preferences in a file of their own: moved in once.
  try {
    if (importLegacyPreferences(settingsStore, join(options.dataDir, 'agent', 'preferences.json'))) log.info('settings: inbox preferences moved into the settings file');
  } catch (e) {
    log.warn(`settings: the old inbox preferences could not be moved in (${e instanceof Error ? e.name : 'error'})`);
  }
  const prefs = (): StoredSettings['inbox'] => settingsStore.get().inbox;
  const keys = new KeyManager(options.secretStore, log);
  await keys.load(environmentCredentials(env).apiKey);

  const language = (s: StoredSettings = settingsStore.get()): Language => (s.language === 'system' ? systemLanguage : s.language);
  const apiUrl = (s: StoredSettings): string => baseUrlOf(env, s) ?? '';
  const activeKind = (s: StoredSettings): 'live' | 'sandbox' | null => (keys.has(s.active_key_kind) ? s.active_key_kind : null);

  const settingsView = (): Settings => {
    const s = settingsStore.get();
    const p = prefs();
    return {
      language: s.language,
      api_base_url: apiUrl(s),
      active_key: activeKind(s),
      watch_folders: s.watch_folders.map((f) => ({ ...f })),
      upload: { concurrency: s.upload.concurrency, bandwidth_limit: s.upload.bandwidth_limit_bytes_per_s, mode: s.upload.mode },
      exam_name_template: p.exam_name_template,
      default_expiration_days: p.default_expiration_days,
      consent: { ...s.consent },
    };
  };
  const keysStatus = (): KeysStatus => ({
    keychain: keys.keychainState,
    live: keys.slot('live'),
    sandbox: keys.slot('sandbox'),
    active: activeKind(settingsStore.get()),
  });

  // The meter moves with every API call: the window hears about it at most once a second.
  const rateBatcher = new ChangeBatcher<RateState>({
    intervalMs: 1000,
    push: ([rate]) => {
      if (rate) events.emit('account:rate', rate);
    },
  });
  const service = new ServiceConnection(APP_VERSION, (rate) => rateBatcher.mark('rate', rate));
  let portOf: { client: ApiClient; port: ExamsPort } | null = null;
  const port = (): ExamsPort | null => {
    const client = service.client;
    if (!client) return null;
    if (portOf?.client !== client) portOf = { client, port: examsPortFromClient(client) };
    return portOf.port;
  };

  const inboxBatcher = new ChangeBatcher<InboxItem[]>({
    intervalMs: options.tuning?.inboxBatchMs ?? 200,
    push: ([items]) => {
      if (items) events.emit('inbox:changed', items);
    },
  });
  const inbox = new Inbox(
    await InboxStore.open(join(agentDir, 'inbox.json')),
    () => ({ template: prefs().exam_name_template, language: language(), defaultExpirationDays: prefs().default_expiration_days }),
    (items) => inboxBatcher.mark('inbox', items),
  );
  const ledger = await Ledger.open(join(options.dataDir, 'watch', 'uploaded-studies.jsonl'));
  const notifier = options.notifier ?? logNotifier(log);
  const notify = (kind: 'exam_ready' | 'upload_failed' | 'upload_retrying', view: UploadJobView): void => {
    const t = texts(language());
    const [title, body] =
      kind === 'exam_ready' ? [t.examReadyTitle, t.examReadyBody(view.name)] : kind === 'upload_failed' ? [t.uploadFailedTitle, t.uploadFailedBody(view.name)] : [t.uploadRetryingTitle, t.uploadRetryingBody(view.name)];
    try {
      notifier.notify({ kind: kind === 'exam_ready' ? 'exam_ready' : 'upload_failed', title, body, job_id: view.id });
    } catch {
      // No notification service: the window still shows it.
    }
  };

  const recorder = new ExamRecorder({ ledger, inbox, agentId, log });
  const originOf = (view: UploadJobView): JobOrigin => {
    if (!view.inbox_id || !inbox.has(view.inbox_id)) return null;
    const item = inbox.get(view.inbox_id);
    return { folderId: item.folder_id, exportPath: item.export_path, study_uid: item.study_uid };
  };
  // One scheduler for every background refresh, within a share of the key's hourly allowance.
  const poll = new PollScheduler({
    ...(options.tuning?.pollClock ? { clock: options.tuning.pollClock } : {}),
    gate: () => {
      const meter = service.client?.meter;
      const s = meter?.snapshot();
      return {
        limit: s?.limit ?? null,
        remaining: s?.remaining ?? null,
        blockedForWallMs: meter?.waitMs() ?? 0,
        resetInWallMs: s?.reset ? Math.max(0, s.reset.getTime() - Date.now()) : null,
      };
    },
    onError: (task, e) => log.warn(`background ${task} failed: ${e instanceof Error ? e.name : 'error'}`),
  });
  const feed = new NotificationFeed((state) => events.emit('notifications:changed', state), () => notifier);

  const queue = await UploadQueue.open({
    file: join(agentDir, 'uploads.json'),
    dataDir: options.dataDir,
    port,
    targetPort: (target, fields) => (service.client ? extraTakePort(service.client, target, fields) : null),
    finish: async (examId, expirationDays) => {
      const client = service.client;
      if (!client) return { viewer_url: null };
      if (expirationDays !== null) await client.exams.update(examId, { expiration_days: expirationDays });
      const exam = await client.exams.get(examId);
      return { viewer_url: exam.viewer_url ?? null };
    },
    settings: () => {
      const u = settingsStore.get().upload;
      return { concurrency: u.concurrency, bandwidthLimit: u.bandwidth_limit_bytes_per_s, mode: u.mode };
    },
    push: (changed) => events.emit('uploads:state', changed),
    hooks: {
      async onReady(view, info) {
        if (view.inbox_id && inbox.has(view.inbox_id)) inbox.setStatus(view.inbox_id, 'uploaded', view.id);
        notify('exam_ready', view);
        activity.emit('upload:ready', { view, origin: originOf(view), files: info.result.files, bytes: info.result.bytes });
        await recorder.ready(view, { ledger: info.ledger, result: info.result });
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
      onStruggling(view) {
        activity.emit('upload:struggling', { view, origin: originOf(view) });
        notify('upload_retrying', view);
      },
    },
    log,
    ...(options.tuning?.uploadsBatchMs !== undefined ? { batchMs: options.tuning.uploadsBatchMs } : {}),
    ...(options.tuning?.retryDelaysMs ? { retryDelaysMs: options.tuning.retryDelaysMs } : {}),
    ...(options.tuning?.engine ? { engine: options.tuning.engine } : {}),
  });

  const watchers = new Watchers({
    ledger,
    inbox,
    queue,
    recorder,
    agentId,
    log,
    activity,
    ...(options.tuning?.watcher ? { watcher: options.tuning.watcher } : {}),
    ...(options.tuning?.heldRetryMs !== undefined ? { heldRetryMs: options.tuning.heldRetryMs } : {}),
  });
  const applyWatchers = (s: StoredSettings): void => {
    watchers.apply(options.folders ?? s.watch_folders).catch((e: unknown) => log.warn(`watch folders could not start: ${e instanceof Error ? e.name : 'error'}`));
  };

  const connect = (s: StoredSettings = settingsStore.get()): void => {
    const kind = activeKind(s);
    const before = service.client;
    service.configure(apiUrl(s) || null, kind ? keys.value(kind) : null);
    // Another key is another account: its notifications are not news of this one.
    if (service.client !== before) feed.reset();
    queue.kick();
  };
  connect();
  const stopBackground = registerBackgroundTasks({
    scheduler: poll,
    client: () => service.client,
    feed,
    pushAccount: (account) => events.emit('account:changed', account),
    pushActivity: (latest) => events.emit('activity:changed', latest),
  });

  const unsubscribeSettings = settingsStore.subscribe((s) => {
    connect(s);
    applyWatchers(s);
    queue.applySettings();
    inbox.reprefill();
    events.emit('settings:changed', settingsView());
  });

  const statusListeners = new Set<(s: AgentStatus) => void>();
  const unsubscribeQueue = queue.onStatus(() => {
    const s = queue.status();
    for (const l of statusListeners) l(s);
  });

  const consent = new ConsentDesk({
    client: () => service.require(),
    settings: () => settingsStore.get().consent,
    dataDir: options.dataDir,
    language: () => language(),
    display: options.patientDisplay ?? pagePatientDisplay(options.patientPageOrigin ?? (() => null)),
    emitStatus: (exam_id, c) => events.emit('consent:status', { exam_id, consent: c }),
    emitSession: (s) => events.emit('consent:session', s),
    poller: poll,
  });

  const handlers = createHandlers({
    transport: options.transport,
    systemLanguage,
    settingsStore,
    keys,
    service,
    inbox,
    queue,
    recorder,
    consent,
    folderPicker: options.folderPicker ?? noFolderPicker,
    settingsView,
    keysStatus,
    keysChanged: () => {
      connect();
      events.emit('keys:changed', keysStatus());
      events.emit('settings:changed', settingsView());
    },
    poll,
    feed,
  });
  const host = createContractHost(handlers, (l) => events.subscribe(l), log);

  applyWatchers(settingsStore.get());

  let stopped: Promise<void> | undefined;
  return {
    host,
    activity,
    consent,
    settings: settingsView,
    language: () => language(),
    status: () => queue.status(),
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    settingsFile: settingsStore.path,
    poll,
    stop() {
      stopped ??= (async () => {
        stopBackground();
        poll.stop();
        unsubscribeSettings();
        unsubscribeQueue();
        consent.close();
        await watchers.close();
        await queue.close();
        await recorder.releaseAll();
        inboxBatcher.close();
        rateBatcher.close();
        await inbox.flush();
        service.close();
        await stopScanWorkers();
      })();
      return stopped;
    },
  };
}
