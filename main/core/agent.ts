// The agent: the composition root of the core. It builds the settings store, the keys, the
// service connection, the inbox, the upload queue and the folder watchers, keeps them in step
// when settings or keys change, and exposes the contract (`host`) to a transport: the Electron
// IPC wrappers (main/index.ts), the browser-mode server (`scanbridge serve`) or a test.
import { join } from 'node:path';
import type { InboxItem, KeysStatus, Language, RateState, Settings, UploadJobView } from '../../preload/contract';
import type { ContractHost, Logger } from './agent/contract';
import { createContractHost } from './agent/contract';
import { ChangeBatcher } from './agent/change-batcher';
import { EventHub } from './agent/event-hub';
import { createHandlers } from './agent/handlers';
import { Inbox } from './agent/inbox';
import { InboxStore } from './agent/inbox-store';
import { KeyManager } from './agent/keys';
import { systemLanguage as detectSystemLanguage, texts } from './agent/messages';
import type { FolderPicker, Notifier } from './agent/ports';
import { logNotifier, noFolderPicker } from './agent/ports';
import { PreferencesStore } from './agent/preferences';
import { ServiceConnection } from './agent/service';
import type { EngineOptions } from './upload/engine';
import { UploadQueue } from './agent/upload-queue';
import { Watchers } from './agent/watchers';
import type { ApiClient } from './api';
import { APP_VERSION } from './api/user-agent';
import { ConsentDesk, pagePatientDisplay } from './consent/desk';
import type { PatientDisplayPort } from './consent/desk';
import { stopScanWorkers } from './dicom';
import type { SecretStore } from './secrets/secret-store';
import { openSettingsStore } from './settings';
import type { Settings as StoredSettings } from './settings';
import { examsPortFromClient } from './upload/api-port';
import { extraTakePort } from './upload/target';
import type { ExamsPort } from './upload/ports';
import type { FolderWatcherOptions } from './watch';
import { Ledger } from './watch';

export type { ContractHost, Logger } from './agent/contract';
export type { FolderPicker, Notice, Notifier } from './agent/ports';

export type AgentOptions = {
  /** The app data folder (inbox, upload journals, ledger): appDataDir() from core/paths in the app and CLI. */
  dataDir: string;
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
  };
};

export type AgentStatus = 'idle' | 'uploading' | 'error';

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
  /** Where the settings file is (tests check that it never holds a key). */
  settingsFile: string;
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
  const agentDir = join(options.dataDir, 'agent');
  const events = new EventHub();

  const settingsStore = openSettingsStore({ ...(options.configDir ? { cwd: options.configDir } : {}), env });
  if (settingsStore.problems.length > 0) log.warn(`settings: fell back to defaults for ${settingsStore.problems.join(', ')}`);
  const prefs = new PreferencesStore(join(agentDir, 'preferences.json'));
  const keys = new KeyManager(options.secretStore, log);
  await keys.load(env['SCANBRIDGE_API_KEY']?.trim() || undefined);

  const language = (s: StoredSettings = settingsStore.get()): Language => (s.language === 'system' ? systemLanguage : s.language);
  const apiUrl = (s: StoredSettings): string => env['SCANBRIDGE_API_URL']?.trim() || s.api_base_url || '';
  const activeKind = (s: StoredSettings): 'live' | 'sandbox' | null => (keys.has(s.active_key_kind) ? s.active_key_kind : null);

  const settingsView = (): Settings => {
    const s = settingsStore.get();
    const p = prefs.get();
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
    () => ({ template: prefs.get().exam_name_template, language: language(), defaultExpirationDays: prefs.get().default_expiration_days }),
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
        // Auto-mode uploads are recorded by the watcher's coordinator (with the share's done marker).
        if (info.source === 'review' && info.ledger) await ledger.record(info.ledger, info.result.exam_id);
      },
      onEnded(view) {
        // Back to the inbox, so staff can correct and upload again.
        if (view.inbox_id && inbox.has(view.inbox_id)) inbox.setStatus(view.inbox_id, 'review', null);
        if (view.phase === 'failed') notify('upload_failed', view);
      },
      onStruggling(view) {
        notify('upload_retrying', view);
      },
    },
    log,
    ...(options.tuning?.uploadsBatchMs !== undefined ? { batchMs: options.tuning.uploadsBatchMs } : {}),
    ...(options.tuning?.retryDelaysMs ? { retryDelaysMs: options.tuning.retryDelaysMs } : {}),
    ...(options.tuning?.engine ? { engine: options.tuning.engine } : {}),
  });

  const watchers = new Watchers({ ledger, inbox, queue, log, ...(options.tuning?.watcher ? { watcher: options.tuning.watcher } : {}) });
  const applyWatchers = (s: StoredSettings): void => {
    watchers.apply(s.watch_folders).catch((e: unknown) => log.warn(`watch folders could not start: ${e instanceof Error ? e.name : 'error'}`));
  };

  const connect = (s: StoredSettings = settingsStore.get()): void => {
    const kind = activeKind(s);
    service.configure(apiUrl(s) || null, kind ? keys.value(kind) : null);
    queue.kick();
  };
  connect();

  const unsubscribeSettings = settingsStore.subscribe((s) => {
    connect(s);
    applyWatchers(s);
    queue.applySettings();
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
  });

  const handlers = createHandlers({
    transport: options.transport,
    systemLanguage,
    settingsStore,
    prefs,
    keys,
    service,
    inbox,
    queue,
    consent,
    folderPicker: options.folderPicker ?? noFolderPicker,
    settingsView,
    keysStatus,
    keysChanged: () => {
      connect();
      events.emit('keys:changed', keysStatus());
      events.emit('settings:changed', settingsView());
    },
    prefsChanged: () => events.emit('settings:changed', settingsView()),
  });
  const host = createContractHost(handlers, (l) => events.subscribe(l), log);

  applyWatchers(settingsStore.get());

  let stopped: Promise<void> | undefined;
  return {
    host,
    consent,
    settings: settingsView,
    language: () => language(),
    status: () => queue.status(),
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    settingsFile: settingsStore.path,
    stop() {
      stopped ??= (async () => {
        unsubscribeSettings();
        unsubscribeQueue();
        consent.close();
        await watchers.close();
        await queue.close();
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
