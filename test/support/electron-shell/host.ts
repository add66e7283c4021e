// The child process that runs the bundled desktop shell (main/.build/index.cjs) in plain Node: it
// gives the bundle the Electron double (double.ts) instead of `electron`, and no keytar (keys then
// take the shell's own fallback, safeStorage, which the double reports unavailable), and answers
// the test's requests over the fork's IPC channel (index.ts starts it). After the app has quit it
// lets go of that channel, so the process ends by itself only if the shell left nothing running;
// if it is still alive a while later it says what is left and exits with code 3.
import Module, { createRequire, register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HandlerDetails, IpcMainInvokeEvent, WebContents } from 'electron';
import { createElectronDouble, electronEvent } from './double';
import type { DoubleOptions } from './double';
import { DOUBLE_OPTIONS_ENV } from './protocol';
import type { HostMessage, SessionVerdicts, ShellCommand, ShellMessage, ShellRequests, ShellState } from './protocol';

const raw = process.env[DOUBLE_OPTIONS_ENV];
if (!raw) throw new Error(`${DOUBLE_OPTIONS_ENV} is not set: start this through test/support/electron-shell.`);
const options = JSON.parse(raw) as DoubleOptions;
const double = createElectronDouble(options);
const bundle = join(options.appPath, 'main', '.build', 'index.cjs');

// Node's CommonJS loader entry: `electron` asked for by the bundle gets the double; every other
// module, and every other caller, loads as usual.
type Load = (request: string, parent: { filename?: string | null } | null | undefined, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load };
const load = loader._load;
loader._load = function (request, parent, isMain) {
  if (request === 'electron' && parent?.filename === bundle) return double.electron;
  return load.call(this, request, parent, isMain);
};

// The bundle loads keytar with import() (main/adapters/keytar-secret-store.ts), through the ES
// module loader: a resolve hook answers "not installed" to the bundle, as where it could not be built.
const withoutKeytar = `
let bundle;
export function initialize(data) { bundle = data.bundle; }
export async function resolve(specifier, context, next) {
  if (specifier === 'keytar' && context.parentURL === bundle) {
    throw Object.assign(new Error("Cannot find package 'keytar'"), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(withoutKeytar)}`, { data: { bundle: pathToFileURL(bundle).href } });

const send = (message: HostMessage): void => {
  if (process.connected) process.send?.(message);
};

let changePending = false;
double.onChange(() => {
  if (changePending) return;
  changePending = true;
  setImmediate(() => {
    changePending = false;
    send({ kind: 'changed' });
  });
});

function state(): ShellState {
  const { app } = double;
  return {
    lockRequested: app.lockRequested,
    quitRequests: app.quitRequests,
    quitsRefusedByWindow: app.quitsRefusedByWindow,
    quitted: app.quitted,
    appEvents: app.eventNames().map(String),
    privilegedSchemes: [...double.privilegedSchemes],
    partitions: [...double.partitionRules.keys()],
    protocols: [...double.protocolHandlers.keys()],
    handlers: [...double.invokeHandlers.keys()],
    windows: double.windows.map((w) => ({
      options: w.options,
      contentsId: w.webContents.id,
      url: w.webContents.url,
      visible: w.visible,
      destroyed: w.isDestroyed(),
      fullScreen: w.fullScreen,
      kiosk: w.kiosk,
      bounds: w.getBounds(),
      calls: [...w.calls],
      sent: [...w.webContents.sent],
      printed: [...w.webContents.printed],
    })),
    trays: double.trays.map((t) => ({
      image: t.image,
      toolTip: t.toolTip,
      menu: t.menu.map((i) => i.label ?? `(${i.type ?? 'item'})`),
      destroyed: t.destroyed,
    })),
    openedExternally: [...double.openedExternally],
    openedPaths: [...double.openedPaths],
  };
}

function windowAt(index: number): (typeof double.windows)[number] {
  const win = double.windows[index];
  if (!win) throw new Error(`There is no window #${index}.`);
  return win;
}

const handlers: { [K in ShellCommand]: (args: ShellRequests[K]['args']) => Promise<ShellRequests[K]['result']> } = {
  state: async () => state(),

  async fetch({ url, method }) {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = double.protocolHandlers.get(scheme);
    if (!handler) throw new Error(`Nothing serves ${scheme}://`);
    const response = await handler(new Request(url, { method: method ?? 'GET' }));
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  },

  async invoke({ channel, payload, frameUrl, subframe, window }) {
    const handler = double.invokeHandlers.get(channel);
    if (!handler) throw new Error(`No handler for ${channel}`);
    const contents = windowAt(window).webContents;
    const frame = { url: frameUrl, parent: subframe ? { url: frameUrl, parent: null } : null };
    // Only the fields the shell reads of an invoke event: who sent it and from which frame.
    const event = { sender: contents, senderFrame: frame } as unknown as IpcMainInvokeEvent;
    return (await handler(event, payload)) as unknown;
  },

  async session({ permissions, urls, partition }) {
    const rules = partition === undefined ? double.sessionRules : double.partitionRules.get(partition);
    if (!rules) throw new Error(`No session was made for the partition ${partition}.`);
    const origin = 'app://scanbridge';
    const contents = windowAt(0).webContents as unknown as WebContents;
    type Permission = Parameters<NonNullable<typeof rules.permissionRequest>>[1];
    const verdicts: SessionVerdicts['permissions'] = [];
    for (const permission of permissions as Permission[]) {
      let requested: boolean | null = null;
      const request = { isMainFrame: true, requestingUrl: `${origin}/` };
      rules.permissionRequest?.(contents, permission, (granted) => (requested = granted), request);
      const check = { ...request, embeddingOrigin: '', securityOrigin: origin };
      const checked = rules.permissionCheck ? rules.permissionCheck(contents, permission, origin, check) : null;
      verdicts.push({ permission, requested, checked });
    }
    // A USB device as Chromium would describe it; the shell's handler looks at none of its fields.
    type DeviceDetails = Parameters<NonNullable<typeof rules.devicePermission>>[0];
    const device = { deviceId: '1', productId: 1, vendorId: 1 } as unknown as DeviceDetails['device'];
    const devicePermission = rules.devicePermission
      ? rules.devicePermission({ deviceType: 'usb', origin, device })
      : null;
    const requests: SessionVerdicts['requests'] = [];
    for (const url of urls) {
      let cancelled: boolean | null = null;
      rules.beforeRequest?.(
        { id: 1, url, method: 'GET', resourceType: 'mainFrame', referrer: '', timestamp: Date.now(), uploadData: [] },
        (response) => (cancelled = response.cancel ?? false),
      );
      requests.push({ url, cancelled });
    }
    return { permissions: verdicts, devicePermission, requests };
  },

  async contents({ window, url }) {
    const contents = windowAt(window).webContents;
    const navigation = electronEvent({ url });
    contents.emit('will-navigate', navigation, url);
    const redirect = electronEvent({ url });
    contents.emit('will-redirect', redirect, url);
    const frameNavigation = electronEvent({ url, isMainFrame: true, isSameDocument: false });
    contents.emit('will-frame-navigate', frameNavigation);
    const details: HandlerDetails = {
      url,
      frameName: '',
      features: '',
      disposition: 'new-window',
      referrer: { url: '', policy: 'default' },
    };
    const windowOpen = contents.windowOpenHandler ? contents.windowOpenHandler(details).action : null;
    const webview = electronEvent({});
    contents.emit('will-attach-webview', webview, {}, {});
    return {
      navigationPrevented: navigation.defaultPrevented,
      redirectPrevented: redirect.defaultPrevented,
      frameNavigationPrevented: frameNavigation.defaultPrevented,
      windowOpen,
      webviewPrevented: webview.defaultPrevented,
    };
  },

  async pdfViewer({ fails }) {
    double.pdfViewer.fails = fails;
    return null;
  },

  async trayClick({ label }) {
    const tray = double.trays.find((t) => !t.destroyed);
    const item = tray?.menu.find((i) => i.label === label);
    if (!item?.click) throw new Error(`The tray has no "${label}" item.`);
    // The shell's items ignore what Electron passes (the item, the window, the keyboard event).
    (item.click as () => void)();
    return null;
  },

  async appEvent({ event }) {
    if (event === 'second-instance') double.app.emit('second-instance', electronEvent({}), [], options.appPath, {});
    else double.app.emit('activate', electronEvent({}), false);
    return null;
  },

  async screen({ displays, primaryDisplayId, event }) {
    double.screen.displays = displays;
    double.screen.primaryId = primaryDisplayId;
    // The display passed is not the one that changed: the shell reads the list again, never this argument.
    double.screen.emit(event, electronEvent({}), displays[0]);
    return null;
  },
};

process.on('message', (message: ShellMessage) => {
  const run = handlers[message.cmd] as (args: unknown) => Promise<unknown>;
  run(message.args).then(
    (result) => send({ kind: 'reply', id: message.id, ok: true, result }),
    (e: unknown) =>
      send({
        kind: 'reply',
        id: message.id,
        ok: false,
        error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
      }),
  );
});

double.app.onQuit = () => {
  // Let go of the channel once the last message is written (closing it earlier could drop it).
  const message: HostMessage = { kind: 'quit', state: state() };
  if (process.connected) process.send?.(message, undefined, {}, () => process.disconnect());
  // Unreferenced: it does not keep the process alive itself; it fires only if something else does.
  setTimeout(() => {
    process.stderr.write(`still running after the app quit: ${process.getActiveResourcesInfo().join(', ')}\n`);
    process.exit(3);
  }, 10_000).unref();
};

createRequire(import.meta.url)(bundle);
