// A stand-in for the part of Electron's main-process API that the desktop shell uses (main/index.ts,
// main/windows, main/ipc, main/adapters), so that the bundled shell runs in plain Node. Every piece
// is checked with `satisfies` against Electron's own types (node_modules/electron/electron.d.ts):
// when Electron changes a signature the shell relies on, the type-check fails here. Members the
// shell does not use on Linux, unpackaged (login items), are left out: calling one fails the test.
//
// The double records what the shell did (windows and their calls, the tray, handlers, session
// rules) for host.ts to report; it does no more than Electron's documented behaviour needs:
// windows emit 'ready-to-show' after loadURL, every new web contents is announced with
// 'web-contents-created', and app.quit() runs before-quit, the windows' close, will-quit and quit.
// A window with `plugins` on that loads a PDF file behaves as Chromium's PDF viewer does: the page
// loads, then the viewer emits '-pdf-ready-to-print' once it has a whole PDF ('did-fail-load' for a
// missing file); print() records what was at the window's address when it was called and answers
// as when staff pick a printer and print.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as ElectronModule from 'electron';
import type {
  App,
  BaseWindow,
  BrowserWindow,
  BrowserWindowConstructorOptions,
  CustomScheme,
  Dialog,
  Display,
  Event as ElectronEvent,
  HandlerDetails,
  IpcMain,
  LoadURLOptions,
  Menu,
  MenuItem,
  MenuItemConstructorOptions,
  NativeImage,
  OpenDialogOptions,
  OpenDialogReturnValue,
  OpenExternalOptions,
  Protocol,
  Rectangle,
  SafeStorage,
  Screen,
  Session,
  Shell,
  Tray,
  WebContents,
  WebRequest,
  WebContentsPrintOptions,
  WebRequestFilter,
  WindowOpenHandlerResponse,
} from 'electron';

export type DoubleOptions = {
  /** What app.getLocale() answers (the OS language). */
  locale: string;
  /** What app.getAppPath() answers: the repository, where main/.build and renderer/dist are. */
  appPath: string;
  /** Whether requestSingleInstanceLock() gets the lock (false: another instance holds it). */
  singleInstance: boolean;
  displays: Display[];
  primaryDisplayId: number;
};

/** A display as Electron describes it, at `bounds`. */
export function display(id: number, bounds: Rectangle, label: string): Display {
  const size = { width: bounds.width, height: bounds.height };
  return {
    id,
    label,
    bounds,
    workArea: bounds,
    size,
    workAreaSize: size,
    accelerometerSupport: 'unknown',
    touchSupport: 'unknown',
    colorDepth: 24,
    colorSpace: 'srgb',
    depthPerComponent: 8,
    detected: true,
    displayFrequency: 60,
    internal: false,
    maximumCursorSize: { width: 64, height: 64 },
    monochrome: false,
    nativeOrigin: { x: bounds.x, y: bounds.y },
    rotation: 0,
    scaleFactor: 1,
  };
}

/** An Electron event: `preventDefault()` and `defaultPrevented`, plus the event's own fields. */
export function electronEvent<P extends object>(params: P): ElectronEvent<P> {
  const state = { prevented: false };
  return {
    ...params,
    preventDefault: () => {
      state.prevented = true;
    },
    get defaultPrevented() {
      return state.prevented;
    },
  };
}

/** A window call the tests look at, in order. */
export type WindowCall =
  | { call: 'loadURL'; url: string }
  | { call: 'setBounds'; bounds: Partial<Rectangle> }
  | { call: 'setFullScreen' | 'setKiosk'; flag: boolean }
  | { call: 'show' | 'hide' | 'focus' | 'restore' | 'close' | 'destroy' };

/** A print() call: its options and what the window's file held then (null: no file there). */
export type PrintCall = { options: WebContentsPrintOptions; url: string; fileHead: string | null; fileBytes: number };

type BeforeRequestListener = NonNullable<Parameters<WebRequest['onBeforeRequest']>[0]>;
type ProtocolHandler = Parameters<Protocol['handle']>[1];
type InvokeListener = Parameters<IpcMain['handle']>[1];
type PermissionRequestHandler = NonNullable<Parameters<Session['setPermissionRequestHandler']>[0]>;
type PermissionCheckHandler = NonNullable<Parameters<Session['setPermissionCheckHandler']>[0]>;
type DevicePermissionHandler = NonNullable<Parameters<Session['setDevicePermissionHandler']>[0]>;
type MenuTemplate = Array<MenuItemConstructorOptions | MenuItem>;

let nextContentsId = 1;

/** A window's web contents: its page address, what main sent it, its window-open rule. */
export class ContentsDouble extends EventEmitter {
  readonly id = nextContentsId++;
  url = '';
  destroyed = false;
  readonly sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;

  isDestroyed(): boolean {
    return this.destroyed;
  }

  getURL(): string {
    return this.url;
  }

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, payload: args[0] });
    changed();
  }

  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void {
    this.windowOpenHandler = handler;
  }

  readonly printed: PrintCall[] = [];

  /** Records the call and what the page's file held; then answers as a printed job does. */
  print(options: WebContentsPrintOptions = {}, callback?: (success: boolean, failureReason: string) => void): void {
    const bytes = fileAt(this.url);
    this.printed.push({
      options,
      url: this.url,
      fileHead: bytes ? bytes.subarray(0, 5).toString('latin1') : null,
      fileBytes: bytes?.length ?? 0,
    });
    changed();
    setImmediate(() => callback?.(true, ''));
  }
}
ContentsDouble satisfies new () => Pick<
  WebContents,
  'id' | 'isDestroyed' | 'getURL' | 'send' | 'setWindowOpenHandler' | 'print'
>;

/** The bytes of a file:// address, or null (another scheme, or no such file). */
function fileAt(url: string): Buffer | null {
  if (!url.startsWith('file:')) return null;
  try {
    return readFileSync(fileURLToPath(url));
  } catch {
    return null;
  }
}

/** Listeners told after every change the double records (host.ts pushes them to the test). */
const changeListeners = new Set<() => void>();
function changed(): void {
  for (const l of changeListeners) l();
}

/** The rules a session was given (null: none set). */
type SessionRules = {
  permissionRequest: PermissionRequestHandler | null;
  permissionCheck: PermissionCheckHandler | null;
  devicePermission: DevicePermissionHandler | null;
  beforeRequest: BeforeRequestListener | null;
  beforeRequestFilter: WebRequestFilter | null;
};

const noRules = (): SessionRules => ({
  permissionRequest: null,
  permissionCheck: null,
  devicePermission: null,
  beforeRequest: null,
  beforeRequestFilter: null,
});

/** The part of a Session the shell uses. */
type SessionPart = Pick<
  Session,
  'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler' | 'resolveProxy'
> & {
  protocol: Pick<Session['protocol'], 'handle'>;
  webRequest: Pick<Session['webRequest'], 'onBeforeRequest'>;
};

/** A session that records its rules in `rules` and the schemes it serves in `protocolHandlers`. */
function sessionDouble(rules: SessionRules, protocolHandlers: Map<string, ProtocolHandler>) {
  return {
    // No system proxy here: Chromium's answer for a direct connection.
    resolveProxy(_url: string): Promise<string> {
      return Promise.resolve('DIRECT');
    },
    setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
      rules.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
      rules.permissionCheck = handler;
    },
    setDevicePermissionHandler(handler: DevicePermissionHandler | null): void {
      rules.devicePermission = handler;
    },
    protocol: {
      handle(scheme: string, handler: ProtocolHandler): void {
        if (protocolHandlers.has(scheme)) throw new Error(`The scheme "${scheme}" is already handled.`);
        protocolHandlers.set(scheme, handler);
      },
    },
    webRequest: {
      onBeforeRequest(
        filterOrListener: WebRequestFilter | BeforeRequestListener | null,
        listener?: BeforeRequestListener | null,
      ): void {
        if (typeof filterOrListener === 'function' || filterOrListener === null) {
          rules.beforeRequest = filterOrListener;
          rules.beforeRequestFilter = null;
        } else {
          rules.beforeRequest = listener ?? null;
          rules.beforeRequestFilter = filterOrListener;
        }
      },
    },
  } satisfies SessionPart;
}

/** Whether a session's web-request rule cancels a request to `url`. */
export function requestCancelled(rules: SessionRules, url: string): boolean {
  let cancelled = false;
  rules.beforeRequest?.(
    { id: 1, url, method: 'GET', resourceType: 'mainFrame', referrer: '', timestamp: Date.now(), uploadData: [] },
    (response) => (cancelled = response.cancel ?? false),
  );
  return cancelled;
}

/** The Electron module's double and what it recorded. */
export function createElectronDouble(options: DoubleOptions) {
  const windows: WindowDouble[] = [];
  const trays: TrayDouble[] = [];
  const invokeHandlers = new Map<string, InvokeListener>();
  const protocolHandlers = new Map<string, ProtocolHandler>();
  const privilegedSchemes: CustomScheme[] = [];
  const openedExternally: string[] = [];
  const openedPaths: string[] = [];
  const menus = new WeakMap<Menu, MenuTemplate>();
  const imagePaths = new WeakMap<NativeImage, string>();
  const sessionRules = noRules();
  /** The PDF viewer's behaviour: `fails` makes every PDF load fail. */
  const pdfViewer = { fails: false };
  /** The rules of the sessions made with session.fromPartition(), by partition. */
  const partitionRules = new Map<string, SessionRules>();

  class AppDouble extends EventEmitter {
    readonly isPackaged = false;
    lockRequested = false;
    quitRequests = 0;
    /** Quits a window stopped by refusing to close (Electron then cancels the quit). */
    quitsRefusedByWindow = 0;
    quitted = false;
    onQuit: (() => void) | null = null;
    private readonly ready = new Promise<void>((resolve) => setImmediate(resolve));

    getLocale(): string {
      return options.locale;
    }

    getAppPath(): string {
      return options.appPath;
    }

    requestSingleInstanceLock(): boolean {
      this.lockRequested = true;
      return options.singleInstance;
    }

    whenReady(): Promise<void> {
      return this.ready;
    }

    quit(): void {
      this.quitRequests++;
      changed();
      const beforeQuit = electronEvent({});
      this.emit('before-quit', beforeQuit);
      if (beforeQuit.defaultPrevented) return;
      for (const win of windows) {
        if (win.isDestroyed()) continue;
        win.close();
        if (!win.isDestroyed()) {
          this.quitsRefusedByWindow++;
          changed();
          return;
        }
      }
      const willQuit = electronEvent({});
      this.emit('will-quit', willQuit);
      if (willQuit.defaultPrevented) return;
      this.quitted = true;
      this.emit('quit', electronEvent({}), 0);
      changed();
      this.onQuit?.();
    }

    /** Electron ends the process at once, without the quit events. */
    exit(exitCode?: number): void {
      process.exit(exitCode ?? 0);
    }
  }
  const app = new AppDouble() satisfies Pick<
    App,
    'isPackaged' | 'getLocale' | 'getAppPath' | 'requestSingleInstanceLock' | 'whenReady' | 'quit' | 'exit'
  >;

  class WindowDouble extends EventEmitter {
    readonly webContents = new ContentsDouble();
    readonly calls: WindowCall[] = [];
    bounds: Rectangle;
    visible = false;
    fullScreen = false;
    kiosk = false;
    minimized = false;
    private destroyed = false;

    constructor(readonly options: BrowserWindowConstructorOptions = {}) {
      super();
      this.bounds = {
        x: options.x ?? 0,
        y: options.y ?? 0,
        width: options.width ?? 800,
        height: options.height ?? 600,
      };
      windows.push(this);
      app.emit('web-contents-created', electronEvent({}), this.webContents);
      changed();
    }

    private record(call: WindowCall): void {
      this.calls.push(call);
      changed();
    }

    loadURL(url: string, _options?: LoadURLOptions): Promise<void> {
      this.webContents.url = url;
      this.record({ call: 'loadURL', url });
      setImmediate(() => {
        if (!this.destroyed) this.emit('ready-to-show', electronEvent({}));
      });
      if (this.options.webPreferences?.plugins && url.startsWith('file:')) this.showPdf(url);
      return Promise.resolve();
    }

    /**
     * Chromium's PDF viewer: the file's request goes through the window's session rules (a refused
     * one fails the load), then the viewer is ready to print once it has the whole file.
     */
    private showPdf(url: string): void {
      const partition = this.options.webPreferences?.partition;
      // As in Electron, a partition's session is made the first time a window names it.
      if (partition) fromPartition(partition);
      const rules = partition ? partitionRules.get(partition) : sessionRules;
      // A refused request, or a viewer told to fail (a PDF it cannot read, a crashed plugin).
      const refused = (rules ? requestCancelled(rules, url) : false) || pdfViewer.fails;
      const bytes = fileAt(url);
      const whole = bytes !== null && bytes.subarray(0, 5).toString('latin1') === '%PDF-' && bytes.includes('%%EOF');
      setImmediate(() => {
        if (this.destroyed) return;
        if (refused || !whole) {
          const [code, text] = refused ? [-20, 'ERR_BLOCKED_BY_CLIENT'] : [-6, 'ERR_FILE_NOT_FOUND'];
          this.webContents.emit('did-fail-load', electronEvent({}), code, text, url, true);
          return;
        }
        this.webContents.emit('did-finish-load', electronEvent({}));
        setImmediate(() => {
          if (!this.destroyed) this.webContents.emit('-pdf-ready-to-print');
        });
      });
    }

    /** Like Electron: gone at once, without a 'close' event that could refuse it. */
    destroy(): void {
      this.record({ call: 'destroy' });
      this.destroyed = true;
      this.visible = false;
      this.webContents.destroyed = true;
      this.webContents.emit('destroyed');
      this.emit('closed');
      changed();
    }

    show(): void {
      this.visible = true;
      this.record({ call: 'show' });
    }

    hide(): void {
      this.visible = false;
      this.record({ call: 'hide' });
    }

    focus(): void {
      this.record({ call: 'focus' });
    }

    restore(): void {
      this.minimized = false;
      this.record({ call: 'restore' });
    }

    isMinimized(): boolean {
      return this.minimized;
    }

    isDestroyed(): boolean {
      return this.destroyed;
    }

    getBounds(): Rectangle {
      return { ...this.bounds };
    }

    setBounds(bounds: Partial<Rectangle>, _animate?: boolean): void {
      this.bounds = { ...this.bounds, ...bounds };
      this.record({ call: 'setBounds', bounds });
    }

    setFullScreen(flag: boolean): void {
      this.fullScreen = flag;
      this.record({ call: 'setFullScreen', flag });
    }

    setKiosk(flag: boolean): void {
      this.kiosk = flag;
      this.record({ call: 'setKiosk', flag });
    }

    /** Like Electron: 'close' may be prevented; otherwise the window and its contents are gone. */
    close(): void {
      this.record({ call: 'close' });
      const event = electronEvent({});
      this.emit('close', event);
      if (event.defaultPrevented) return;
      this.destroyed = true;
      this.visible = false;
      this.webContents.destroyed = true;
      this.emit('closed');
      changed();
    }
  }
  WindowDouble satisfies new (
    options?: BrowserWindowConstructorOptions,
  ) => Pick<
    BrowserWindow,
    | 'loadURL'
    | 'show'
    | 'hide'
    | 'focus'
    | 'restore'
    | 'isMinimized'
    | 'isDestroyed'
    | 'getBounds'
    | 'setBounds'
    | 'setFullScreen'
    | 'setKiosk'
    | 'close'
    | 'destroy'
  >;

  class TrayDouble extends EventEmitter {
    image: string;
    toolTip = '';
    menu: MenuTemplate = [];
    destroyed = false;

    constructor(image: NativeImage | string, _guid?: string) {
      super();
      this.image = typeof image === 'string' ? image : (imagePaths.get(image) ?? '');
      trays.push(this);
      changed();
    }

    setToolTip(toolTip: string): void {
      this.toolTip = toolTip;
      changed();
    }

    setContextMenu(menu: Menu | null): void {
      this.menu = menu ? (menus.get(menu) ?? []) : [];
      changed();
    }

    setImage(image: NativeImage | string): void {
      this.image = typeof image === 'string' ? image : (imagePaths.get(image) ?? '');
      changed();
    }

    destroy(): void {
      this.destroyed = true;
      changed();
    }
  }
  TrayDouble satisfies new (
    image: NativeImage | string,
    guid?: string,
  ) => Pick<Tray, 'setToolTip' | 'setContextMenu' | 'setImage' | 'destroy'>;

  const Menu = {
    buildFromTemplate(template: MenuTemplate): Menu {
      // Only the tray reads it back (setContextMenu); nothing else of a Menu is used.
      const menu = {} as Menu;
      menus.set(menu, template);
      return menu;
    },
  } satisfies Pick<typeof ElectronModule.Menu, 'buildFromTemplate'>;

  const nativeImage = {
    createFromPath(path: string): NativeImage {
      const image = {} as NativeImage;
      imagePaths.set(image, path);
      return image;
    },
  } satisfies Pick<typeof ElectronModule.nativeImage, 'createFromPath'>;

  const defaultSession = sessionDouble(sessionRules, protocolHandlers);
  const partitions = new Map<string, ReturnType<typeof sessionDouble>>();
  /** Electron gives the same session for the same partition; an in-memory one without `persist:`. */
  const fromPartition = (partition: string): ReturnType<typeof sessionDouble> => {
    let made = partitions.get(partition);
    if (!made) {
      const rules = noRules();
      partitionRules.set(partition, rules);
      made = sessionDouble(rules, new Map());
      partitions.set(partition, made);
      changed();
    }
    return made;
  };
  fromPartition satisfies (partition: string) => SessionPart;

  const protocol = {
    registerSchemesAsPrivileged(customSchemes: CustomScheme[]): void {
      privilegedSchemes.push(...customSchemes);
    },
  } satisfies Pick<Protocol, 'registerSchemesAsPrivileged'>;

  const ipcMain = {
    handle(channel: string, listener: InvokeListener): void {
      // Electron refuses a second handler for a channel.
      if (invokeHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      invokeHandlers.set(channel, listener);
      changed();
    },
    removeHandler(channel: string): void {
      invokeHandlers.delete(channel);
    },
  } satisfies Pick<IpcMain, 'handle' | 'removeHandler'>;

  class ScreenDouble extends EventEmitter {
    displays = options.displays;
    primaryId = options.primaryDisplayId;

    getAllDisplays(): Display[] {
      return this.displays.map((d) => ({ ...d }));
    }

    getPrimaryDisplay(): Display {
      const primary = this.displays.find((d) => d.id === this.primaryId) ?? this.displays[0];
      if (!primary) throw new Error('The display double has no display.');
      return { ...primary };
    }

    /** The display the rectangle overlaps most, else the primary one (as Electron does). */
    getDisplayMatching(rect: Rectangle): Display {
      const overlap = (d: Display): number => {
        const w = Math.min(rect.x + rect.width, d.bounds.x + d.bounds.width) - Math.max(rect.x, d.bounds.x);
        const h = Math.min(rect.y + rect.height, d.bounds.y + d.bounds.height) - Math.max(rect.y, d.bounds.y);
        return w > 0 && h > 0 ? w * h : 0;
      };
      let best: Display | null = null;
      for (const d of this.displays) if (overlap(d) > 0 && (!best || overlap(d) > overlap(best))) best = d;
      return best ? { ...best } : this.getPrimaryDisplay();
    }
  }
  const screen = new ScreenDouble() satisfies Pick<
    Screen,
    'getAllDisplays' | 'getPrimaryDisplay' | 'getDisplayMatching'
  >;

  const shell = {
    openExternal(url: string, _options?: OpenExternalOptions): Promise<void> {
      openedExternally.push(url);
      return Promise.resolve();
    },
    /** A folder shown in the file manager: '' is Electron's "opened". */
    openPath(path: string): Promise<string> {
      openedPaths.push(path);
      return Promise.resolve('');
    },
  } satisfies Pick<Shell, 'openExternal' | 'openPath'>;

  // No OS notifications here: the shell checks isSupported() before making one.
  const Notification = { isSupported: (): boolean => false } satisfies Pick<
    typeof ElectronModule.Notification,
    'isSupported'
  >;

  const dialog = {
    showOpenDialog(
      _windowOrOptions: BaseWindow | OpenDialogOptions,
      _options?: OpenDialogOptions,
    ): Promise<OpenDialogReturnValue> {
      return Promise.resolve({ canceled: true, filePaths: [] });
    },
  } satisfies Pick<Dialog, 'showOpenDialog'>;

  // As on a Linux desktop without a secret service: no encryption, so keys stay in memory.
  const safeStorage = {
    isEncryptionAvailable: (): boolean => false,
    getSelectedStorageBackend: (): ReturnType<SafeStorage['getSelectedStorageBackend']> => 'basic_text',
    encryptString(_plainText: string): Buffer {
      throw new Error('Encryption is not available.');
    },
    decryptString(_encrypted: Buffer): string {
      throw new Error('Encryption is not available.');
    },
  } satisfies Pick<
    SafeStorage,
    'isEncryptionAvailable' | 'getSelectedStorageBackend' | 'encryptString' | 'decryptString'
  >;

  const electron = {
    app,
    BrowserWindow: WindowDouble,
    Tray: TrayDouble,
    Menu,
    nativeImage,
    session: { defaultSession, fromPartition },
    protocol,
    ipcMain,
    screen,
    shell,
    Notification,
    dialog,
    safeStorage,
  } satisfies Partial<Record<keyof typeof ElectronModule, unknown>>;

  return {
    electron,
    app,
    screen,
    windows,
    trays,
    invokeHandlers,
    protocolHandlers,
    privilegedSchemes,
    sessionRules,
    partitionRules,
    pdfViewer,
    openedExternally,
    openedPaths,
    onChange(listener: () => void): void {
      changeListeners.add(listener);
    },
  };
}

export type ElectronDouble = ReturnType<typeof createElectronDouble>;
export type WindowDoubleView = ElectronDouble['windows'][number];
