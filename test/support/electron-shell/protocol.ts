// What the test and the shell's host process (host.ts) say to each other over the fork's IPC channel.
import type { BrowserWindowConstructorOptions, CustomScheme, Display, Rectangle } from 'electron';
import type { PrintCall, WindowCall } from './double';

export const DOUBLE_OPTIONS_ENV = 'SCANBRIDGE_ELECTRON_DOUBLE';

export type WindowView = {
  options: BrowserWindowConstructorOptions;
  contentsId: number;
  url: string;
  visible: boolean;
  destroyed: boolean;
  fullScreen: boolean;
  kiosk: boolean;
  bounds: Rectangle;
  calls: WindowCall[];
  /** What main sent to this window (contract events), in order. */
  sent: { channel: string; payload: unknown }[];
  /** Its webContents.print() calls. */
  printed: PrintCall[];
};

export type TrayView = { image: string; toolTip: string; menu: string[]; destroyed: boolean };

export type ShellState = {
  lockRequested: boolean;
  quitRequests: number;
  quitsRefusedByWindow: number;
  quitted: boolean;
  /** App events the shell listens to. */
  appEvents: string[];
  privilegedSchemes: CustomScheme[];
  /** Sessions made with session.fromPartition(). */
  partitions: string[];
  /** Schemes served on the default session. */
  protocols: string[];
  /** The IPC channels with a handler. */
  handlers: string[];
  windows: WindowView[];
  trays: TrayView[];
  openedExternally: string[];
  /** Folders shown in the file manager (shell.openPath). */
  openedPaths: string[];
};

export type SessionVerdicts = {
  /** Per permission: what the request handler, the check handler answer (true = granted). */
  permissions: { permission: string; requested: boolean | null; checked: boolean | null }[];
  devicePermission: boolean | null;
  /** Per URL: whether the web-request filter cancels a request to it. */
  requests: { url: string; cancelled: boolean | null }[];
};

export type ContentsVerdicts = {
  navigationPrevented: boolean;
  redirectPrevented: boolean;
  frameNavigationPrevented: boolean;
  windowOpen: string | null;
  webviewPrevented: boolean;
};

export type ShellRequests = {
  state: { args: Record<string, never>; result: ShellState };
  /** A request to a scheme served on the default session (app://…), as the window's would be. */
  fetch: {
    args: { url: string; method?: string };
    result: { status: number; headers: Record<string, string>; body: string };
  };
  /** Calls an IPC handler as the top frame (or a subframe) at `frameUrl` of the window at index `window`. */
  invoke: {
    args: { channel: string; payload?: unknown; frameUrl: string; subframe?: boolean; window: number };
    result: unknown;
  };
  /** The rules of the default session, or of the one made for `partition`. */
  session: { args: { permissions: string[]; urls: string[]; partition?: string }; result: SessionVerdicts };
  /** What the rules applied to every web contents say about going to `url` from the window at index `window`. */
  contents: { args: { window: number; url: string }; result: ContentsVerdicts };
  /** Makes the PDF viewer fail every load (true) or work again (false). */
  pdfViewer: { args: { fails: boolean }; result: null };
  /** Clicks the tray menu item with this label. */
  trayClick: { args: { label: string }; result: null };
  /** Emits an app event (another instance started, the dock icon clicked). */
  appEvent: { args: { event: 'second-instance' | 'activate' }; result: null };
  /** Changes the displays and emits the screen event. */
  screen: {
    args: {
      displays: Display[];
      primaryDisplayId: number;
      event: 'display-added' | 'display-removed' | 'display-metrics-changed';
    };
    result: null;
  };
};

export type ShellCommand = keyof ShellRequests;
export type ShellMessage = {
  [K in ShellCommand]: { id: number; cmd: K; args: ShellRequests[K]['args'] };
}[ShellCommand];
export type HostMessage =
  | { kind: 'reply'; id: number; ok: true; result: unknown }
  | { kind: 'reply'; id: number; ok: false; error: string }
  | { kind: 'changed' }
  | { kind: 'quit'; state: ShellState };
