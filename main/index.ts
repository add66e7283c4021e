// Electron entry: one instance, the agent running from the tray, the main window on demand.
// Everything that matters lives in main/core (the agent); this file only wires it to Electron.
import { app, session, shell } from 'electron';
import { join } from 'node:path';
import type { BrowserWindow } from 'electron';
import { electronNotifier } from './adapters/electron-notifier';
import { electronDocumentOpener } from './adapters/document-opener';
import { electronFolderPicker } from './adapters/folder-picker';
import { KeytarSecretStore } from './adapters/keytar-secret-store';
import { safeStorageCipher } from './adapters/safe-storage-cipher';
import { setStartAtLogin, startedHidden } from './adapters/login-item';
import { appPaths } from './adapters/app-files';
import { createAppTray } from './adapters/tray';
import type { AppTray, TrayLabels } from './adapters/tray';
import type { Agent } from './core/agent';
import { startAgent } from './core/agent';
import { errorCode, openLog } from './core/log';
import { useNetwork } from './core/net/network';
import { systemNetwork } from './adapters/system-network';
import { languageOfLocale } from './core/agent/host/os-language';
import { t } from './core/i18n';
import { appDataDir } from './core/paths';
import { EncryptedFileSecretStore, FallbackSecretStore } from './core/secrets';
import { forwardEvents, registerContractHandlers } from './ipc/contract-ipc';
import { isAppUrl, registerAppScheme, serveRenderer } from './windows/app-protocol';
import { createMainWindow } from './windows/main-window';
import { createPdfPrinter } from './windows/print-window';
import { desktopPatientDisplay } from './windows/patient-display';
import { patientMethodNames } from '../preload/contract';
import type { MethodName } from '../preload/contract';
import { hardenEveryContents, hardenSession, setExternalHosts } from './windows/security';

// The app's log (CONTRACTS.md §3): on Windows the app has no console, so the day's file in the data
// folder is what support reads; a development run also sees warnings on stderr.
const log = openLog({ dataDir: appDataDir(), cmd: 'app', echo: (t) => void process.stderr.write(t) });

// Module-level references: a collected Tray disappears, a collected window closes.
let tray: AppTray | null = null;
let mainWindow: BrowserWindow | null = null;
let agent: Agent | null = null;
let quitting = false;

function trayLabels(a: Agent): TrayLabels {
  const lang = a.language();
  return {
    open: t(lang, 'core.tray.open'),
    quit: t(lang, 'core.tray.quit'),
    tooltip: {
      idle: t(lang, 'core.tray.idle'),
      uploading: t(lang, 'core.tray.uploading'),
      error: t(lang, 'core.tray.error'),
    },
  };
}

function showMainWindow(): void {
  const paths = appPaths();
  if (!mainWindow || mainWindow.isDestroyed()) {
    mainWindow = createMainWindow({ preload: paths.preload, icon: paths.appIcon, isQuitting: () => quitting });
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

async function start(): Promise<void> {
  log.info('app started');
  const paths = appPaths();
  hardenSession(session.defaultSession);
  serveRenderer(session.defaultSession, paths.rendererDir);

  // The display setting is read when the window opens or a display comes or goes.
  let displayId: number | null = null;
  const patientDisplay = desktopPatientDisplay({
    preload: paths.patientPreload,
    displayId: () => displayId,
    isQuitting: () => quitting,
  });
  const dataDir = appDataDir();
  const printer = createPdfPrinter(log);
  // Every call to the service and to storage goes the way the system says (proxy, PAC, OS CAs).
  useNetwork(systemNetwork(session.defaultSession, log));
  agent = await startAgent({
    patientDisplay,
    dataDir,
    // SCANBRIDGE_KEYCHAIN_SERVICE keeps the demo's keys apart from the clinic's own. Without the
    // keytar module, keys are encrypted with safeStorage in the app data folder (never plain text).
    secretStore: new FallbackSecretStore(
      new KeytarSecretStore({ service: process.env['SCANBRIDGE_KEYCHAIN_SERVICE'] || undefined }),
      new EncryptedFileSecretStore(join(dataDir, 'keys.safe-storage.json'), safeStorageCipher()),
    ),
    notifier: electronNotifier(() => showMainWindow()),
    folderPicker: electronFolderPicker(() => mainWindow),
    // The log folder in the system's file manager (Settings → Help); openPath answers '' when it opened.
    folderOpener: async (path) => (await shell.openPath(path)) === '',
    // The patient's sheet prints through the system dialog, from a hidden window showing the PDF.
    documentOpener: electronDocumentOpener(dataDir, (path) => printer.print(path)),
    transport: 'ipc',
    systemLanguage: languageOfLocale(app.getLocale()),
    // A proxy saved in Settings wins over the system's; the OS certificate store is kept, and the
    // extra CA file saved in Settings is added to it.
    network: (s) => systemNetwork(session.defaultSession, log, s.settingsProxy, s.settingsCaFile),
    log,
  });
  const running = agent;
  displayId = running.settings().consent.display_id;
  setExternalHosts([running.settings().api_base_url]);
  running.host.subscribe((name) => {
    if (name !== 'settings:changed') return;
    displayId = running.settings().consent.display_id;
    setExternalHosts([running.settings().api_base_url]);
    tray?.setLabels(trayLabels(running));
  });

  // The patient display may call its consent session's methods and nothing else; the main window anything.
  const patientOnly = new Set<MethodName>(patientMethodNames);
  registerContractHandlers(
    running.host,
    isAppUrl,
    (name, sender) => sender.id !== patientDisplay.contentsId() || patientOnly.has(name),
  );
  forwardEvents(
    running.host,
    () => (mainWindow && !mainWindow.isDestroyed() ? [mainWindow.webContents] : []),
    isAppUrl,
  );

  tray = createAppTray({
    icon: paths.trayIcon,
    labels: trayLabels(running),
    onOpen: showMainWindow,
    onQuit: () => app.quit(),
  });
  tray.setState(running.status());
  running.onStatus((s) => tray?.setState(s));

  // Only an installed app registers itself; a development run must not add the Electron binary to the login items.
  if (app.isPackaged) setStartAtLogin(true);
  if (!startedHidden()) showMainWindow();
}

registerAppScheme();
hardenEveryContents();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => showMainWindow());
  // With every window closed the agent keeps watching and uploading from the tray.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => showMainWindow());
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('will-quit', (event) => {
    const running = agent;
    if (!running) return;
    // Stop cleanly once: uploads are journaled and resume on the next start.
    event.preventDefault();
    agent = null;
    void running.stop().finally(() => {
      tray?.destroy();
      tray = null;
      app.quit();
    });
  });
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      log.error('start-up failed', { code: errorCode(e) });
      app.exit(1);
    });
}
