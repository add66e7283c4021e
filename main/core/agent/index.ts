// The agent: the composition root of the core. It builds the settings store, the keys, the
// service connection, the inbox, the upload queue and the folder watchers, keeps them in step
// when settings or keys change, and exposes the contract (`host`) to a transport: the Electron
// IPC wrappers (main/index.ts), the browser-mode server (`scanbridge serve`) or a test. Each part
// is built by a named builder of its folder; startAgent only puts them together, in order.
import { join } from 'node:path';
import type { Language, Settings } from '../../../preload/contract';
import { APP_VERSION } from '../api/http';
import type { ConsentDesk, PatientDisplayPort } from '../consent/desk';
import { environmentCredentials } from '../credentials';
import type { SecretStore } from '../secrets/secret-store';
import type { Settings as StoredSettings } from '../settings';
import { Emitter } from '../emitter';
import type { EngineOptions } from '../upload/job';
import type { FolderWatcherOptions, WatchFolderConfig } from '../watch';
import { Ledger, newAgentId } from '../watch';
import { agentEvents } from './agent-events';
import { openContractHost } from './agent-host';
import { createSettingsView, openAgentSettings } from './agent-settings';
import { agentShutdown } from './agent-shutdown';
import { registerBackgroundTasks } from './background/background-refreshes';
import { NotificationFeed } from './background/notification-feed';
import { agentPollScheduler } from './background/poll-gate';
import type { PollClock, PollScheduler } from './background/poll-scheduler';
import { openConsentDesk } from './consent-desk';
import type { ContractHost } from './host/contract-host';
import type { Logger } from '../log';
import { systemLanguage as detectSystemLanguage } from './host/os-language';
import { EventHub } from './host/event-hub';
import type { DocumentOpener, FolderOpener, FolderPicker, Notifier } from './host/host-ports';
import { logNotifier, noDocumentOpener, noFolderOpener, noFolderPicker } from './host/host-ports';
import { uploadNotices } from './host/upload-notices';
import { Inbox } from './inbox/inbox';
import { InboxStore } from './inbox/inbox-store';
import { ActivityHub } from './pipeline/agent-activity';
import { ExamRecorder } from './pipeline/exam-recorder';
import { openStudySources } from './agent-sources';
import type { Receivers } from './pipeline/receivers';
import type { ReceiveConfig } from '../receive';
import { queueHooks } from './queue-hooks';
import { openAgentQueue } from './agent-queue';
import type { AgentStatus } from '../../../preload/contract/vocabulary';
import { KeyManager } from './service/api-keys';
import { CaFileSettings } from './service/ca-file-settings';
import { type NetworkBuilder, openProxySettings } from './service/proxy-settings';
import { ServiceConnection } from './service/service-connection';
import { skippedCopiesOf } from './pipeline/skipped-copies';
import { serviceConnector } from './service-ports';
import { openShareOnReady } from './share-on-ready';
import { logDirOf, stderrLog } from '../log';
import { logActivity } from './agent-log';

export type { ActivityEvents, JobOrigin } from './pipeline/agent-activity';
export { RECEIVER_FOLDER_ID } from './pipeline/receivers';
export type { ContractHost } from './host/contract-host';
export type { FolderOpener, FolderPicker, Notice, Notifier } from './host/host-ports';
export type { PollClock, PollTask } from './background/poll-scheduler';
export type { AgentStatus } from '../../../preload/contract/vocabulary';

export type AgentOptions = {
  /** The app data folder (inbox, upload journals, ledger): appDataDir() from core/paths in the app and CLI. */
  dataDir: string;
  /** Where the inbox and the upload list are kept (default `<dataDir>/agent`). */
  stateDir?: string;
  /** Watch exactly these folders instead of the saved ones (`scanbridge watch`); settings never change them. */
  folders?: WatchFolderConfig[];
  /** Run the DICOM listener so (null: not at all) instead of as the settings say (`scanbridge receive`). */
  receiver?: ReceiveConfig | null;
  /** The settings folder (default: the settings module's, SCANBRIDGE_CONFIG_DIR or the OS convention). */
  configDir?: string;
  /** SCANBRIDGE_API_URL (overrides the saved address) and SCANBRIDGE_API_KEY (a key for this session only). */
  env?: NodeJS.ProcessEnv;
  /** The OS keychain in the app and CLI; an in-memory store only in tests. */
  secretStore: SecretStore;
  notifier?: Notifier;
  folderPicker?: FolderPicker;
  /** Shows the log folder in the system's file manager; absent in browser mode. */
  folderOpener?: FolderOpener;
  /** Prints a document (the patient's sheet) through the system's print dialog; absent in browser mode. */
  documentOpener?: DocumentOpener;
  transport: 'ipc' | 'http';
  /** The patient display (a second window on the desktop); browser mode gives the page's address. */
  patientDisplay?: PatientDisplayPort;
  /** Browser mode: the server's origin, for the patient page's address (known once it listens). */
  patientPageOrigin?: () => string | null;
  /** The OS language (Electron's app.getLocale()); guessed from the environment otherwise. */
  systemLanguage?: Language;
  /**
   * Builds the process's network on the proxy and the CA file saved in Settings (the desktop app: on
   * the system's proxy and CAs); by default on `env`'s proxy and CA variables. Used once either is saved.
   */
  network?: NetworkBuilder;
  /** The log (core/log: `openLog` on the data folder); lines go to stderr only when none is given. */
  log?: Logger;
  /** Timers, shortened by tests. */
  tuning?: {
    uploadsBatchMs?: number;
    inboxBatchMs?: number;
    retryDelaysMs?: readonly number[];
    /** A run that sends nothing for this long lets the next upload start (queue/quiet-run.ts). */
    quietMs?: number;
    engine?: Omit<EngineOptions, 'concurrency' | 'bucket' | 'bandwidthLimit'>;
    watcher?: FolderWatcherOptions;
    heldRetryMs?: number;
    /** The background scheduler's clock (the polling-budget test runs it in step with the emulator's --time-scale). */
    pollClock?: PollClock;
  };
};

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
  /** The DICOM listener: its state, and a promise settled once the current settings are applied. */
  receiver: { status: Receivers['status']; onStatus: Receivers['onStatus']; applied: () => Promise<void> };
  /** Stops watching and uploading (uploads resume on the next start) and saves everything. */
  stop(): Promise<void>;
};

/** The log folder (the support bundle reads it; Settings → Help shows it) and how the desktop opens it. */
function logPortsOf(options: AgentOptions): { logDir: string; folderOpener: FolderOpener } {
  return { logDir: logDirOf(options.dataDir), folderOpener: options.folderOpener ?? noFolderOpener };
}

/** Builds and starts the agent. Watchers start in the background; uploads left unfinished resume. */
export async function startAgent(options: AgentOptions): Promise<Agent> {
  const env = options.env ?? process.env;
  // The front end opens the log (core/log); the support bundle reads it back from the data folder.
  const log = options.log ?? stderrLog('agent');
  const tuning = options.tuning ?? {};
  const agentDir = options.stateDir ?? join(options.dataDir, 'agent');
  const events = new EventHub();
  const emit = events.emit.bind(events);
  const push = agentEvents(emit, tuning);
  const activity = new ActivityHub();
  logActivity(activity, log);
  const agentId = newAgentId();

  const settingsStore = openAgentSettings({ dataDir: options.dataDir, configDir: options.configDir, env, log });
  const keys = new KeyManager(options.secretStore, log);
  await keys.load(environmentCredentials(env).apiKey);
  const proxy = await openProxySettings(options, { settingsStore, env, log });
  const caFile = new CaFileSettings({ settingsStore, env, rebuild: () => proxy.rebuild(), log });
  const systemLanguage = options.systemLanguage ?? detectSystemLanguage(env);
  const view = createSettingsView({ store: settingsStore, keys, env, systemLanguage, activity, emit });
  const language = (): Language => view.language();

  const service = new ServiceConnection(APP_VERSION, push.rate, push.reach);
  const inbox = new Inbox(await InboxStore.open(join(agentDir, 'inbox.json')), view.prefill, push.inbox);
  const ledger = await Ledger.open(join(options.dataDir, 'watch', 'uploaded-studies.jsonl'));
  const notifier = options.notifier ?? logNotifier(log);
  const recorder = new ExamRecorder({ ledger, inbox, agentId, log });

  const poll = agentPollScheduler({ meter: () => service.client?.meter, log, clock: tuning.pollClock });
  const feed = new NotificationFeed(push.notifications, () => notifier);

  const shares = openShareOnReady({ dataDir: options.dataDir, service, log });
  const hooks = queueHooks({ inbox, recorder, activity, notify: uploadNotices(notifier, language), shares });
  const { dataDir, patientDisplay, patientPageOrigin, transport } = options;
  const queue = await openAgentQueue({
    file: join(agentDir, 'uploads.json'),
    dataDir,
    service,
    settingsStore,
    push: push.uploads,
    hooks,
    log,
    tuning,
  });

  const sources = openStudySources({
    ...{ dataDir: options.dataDir, ledger, inbox, queue, recorder, agentId, log, activity },
    ...{ folders: options.folders, receiver: options.receiver, tuning },
  });
  const { watchers, receivers } = sources;

  const settings = (): StoredSettings => settingsStore.get();
  const connect = serviceConnector({
    service,
    view,
    settings,
    onAccountChange: () => feed.reset(),
    kick: () => queue.kick(),
  });
  connect();
  const { account: pushAccount, activity: pushActivity } = push;
  const client = (): typeof service.client => service.client;
  void shares.sweep(); // e-mails a previous run owed (it stopped between "ready" and "shared")
  const stopBackground = registerBackgroundTasks({ scheduler: poll, client, feed, pushAccount, pushActivity });

  const unsubscribeSettings = settingsStore.subscribe((s) => {
    connect(s);
    sources.apply(s);
    queue.applySettings();
    inbox.reprefill();
    emit('settings:changed', view.settings());
  });

  const status = new Emitter<[AgentStatus]>();
  const unsubscribeQueue = queue.onStatus(() => status.emit(queue.status()));

  const consent = openConsentDesk({
    service,
    settingsStore,
    dataDir,
    language,
    events,
    poll,
    patientDisplay,
    patientPageOrigin,
  });

  const { folderPicker = noFolderPicker, documentOpener = noDocumentOpener } = options;
  const receiveStatus = (): ReturnType<Receivers['status']> => receivers.status();
  const services = { settingsStore, keys, service, inbox, queue, recorder, consent, poll, feed, folderPicker };
  // What only the window's methods use: the listener's state, the sheet opener, share-on-ready, the proxy,
  // the CA file, the log folder and the copies of uploaded studies (heard from before the sources start).
  const copies = skippedCopiesOf(activity, push.copies);
  const windowPorts = { receiveStatus, documentOpener, shares, proxy, caFile, copies, ...logPortsOf(options) };
  const host = openContractHost({ ...services, ...windowPorts, transport, systemLanguage, view, connect, events, log });

  sources.apply(settingsStore.get());

  return {
    host,
    activity,
    consent,
    settings: view.settings,
    language,
    status: () => queue.status(),
    onStatus: (listener) => status.subscribe(listener),
    settingsFile: settingsStore.path,
    poll,
    receiver: { status: receiveStatus, onStatus: receivers.onStatus, applied: sources.receiverApplied },
    stop: agentShutdown({
      ...services,
      watchers,
      receivers,
      push,
      stopBackground,
      unsubscribeSettings,
      unsubscribeQueue,
    }),
  };
}
