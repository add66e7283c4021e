// The desktop shell (main/index.ts) stays startable: its bundle (main/.build/index.cjs, built here
// with `node main/esbuild.config.mjs --desktop`) runs in plain Node against a double of the
// Electron API it uses (test/support/electron-shell/double.ts, type-checked against Electron's own
// types), with the real agent behind it on a temporary data and settings folder, talking to the
// emulator. No keychain module: keys take the shell's own fallback.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { methods, patientMethodNames } from '@preload/contract';
import { localDay } from '@main/core/log';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { filesBody, readyExam } from '../../support/emulator/emulator-exams';
import { display } from '../../support/electron-shell/double';
import type { WindowView } from '../../support/electron-shell/protocol';
import { ShellProcess } from '../../support/electron-shell/shell-process';
import { writeCtSeries } from '../../fixtures/dicom/generate';
import { repoRoot } from '@support/repo-paths';

// The shell loads the whole bundled main process in a fresh Node each time, which on a busy 2-core
// machine can take longer than the suite's default time-out, so this file waits longer.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

const root = repoRoot;
const exec = promisify(execFile);
const APP = 'app://scanbridge';

// Three displays: the primary, the one the patient display would take by default (the first that
// is not the primary), and the one the clinic picks (so the choice is what places the window).
const primary = display(1, { x: 0, y: 0, width: 1920, height: 1080 }, 'Front desk');
const tablet = display(2, { x: 1920, y: 0, width: 1280, height: 800 }, 'Tablet');
const penDisplay = display(3, { x: 3200, y: 120, width: 1024, height: 768 }, 'Pen display');
const displays = [primary, tablet, penDisplay];

let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'sb-shell-'));
  // A fresh bundle of the shell and its preloads; the command's bundle (used by other tests) is left alone.
  await exec(process.execPath, ['main/esbuild.config.mjs', '--desktop'], { cwd: root });
  // The window the shell serves: built by `npm test` before the suite; built here when missing.
  if (!existsSync(join(root, 'renderer', 'dist', 'index.html'))) {
    const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
    await exec(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], {
      cwd: root,
    });
  }
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function folders(name: string): { data: string; config: string } {
  const dir = mkdtempSync(join(scratch, `${name}-`));
  return { data: join(dir, 'data'), config: join(dir, 'config') };
}

/** The open window showing `url`. */
const windowOf =
  (url: string) =>
  (s: { windows: WindowView[] }): WindowView | undefined =>
    s.windows.find((w) => w.url === url && !w.destroyed);

describe('a second instance', () => {
  it('asks for the single-instance lock, does not get it, and quits with nothing opened or left running', async () => {
    const dirs = folders('second');
    const shell = ShellProcess.start(
      { locale: 'es-CL', singleInstance: false, displays, primaryDisplayId: 1 },
      { ...process.env, SCANBRIDGE_DATA_DIR: dirs.data, SCANBRIDGE_CONFIG_DIR: dirs.config },
    );
    try {
      const state = await shell.quitWithin();
      expect(state.lockRequested).toBe(true);
      expect(state.quitted).toBe(true);
      expect(state.windows).toEqual([]);
      expect(state.trays).toEqual([]);
      expect(state.handlers).toEqual([]);
      expect(state.protocols).toEqual([]);
      expect(await shell.exited).toEqual({ code: 0, signal: null });
      // The agent never started: no settings or data written.
      expect(existsSync(dirs.data)).toBe(false);
    } finally {
      await shell.stop();
    }
  });
});

describe('the desktop shell', () => {
  let emulator: EmulatorProcess;
  let shell: ShellProcess;
  let dirs: { data: string; config: string };
  /** An exam whose consent was started: the patient display opens only for a consent waiting to be signed. */
  let examId: string;

  beforeAll(async () => {
    emulator = await EmulatorProcess.start();
    const created = await api(emulator.info, emulator.info.keys.pro, 'POST', '/exams', {
      name: 'Shell test',
      files: [{ name: 'a.dcm', size: 10 }],
    });
    examId = String(created.json['id']);
    const consent = await api(emulator.info, emulator.info.keys.pro, 'POST', `/exams/${examId}/consent`, {
      country_code: 'CL',
      locale: 'es',
    });
    expect(consent.status).toBeLessThan(300);
    dirs = folders('first');
    shell = ShellProcess.start(
      { locale: 'es-CL', singleInstance: true, displays, primaryDisplayId: 1 },
      {
        ...process.env,
        SCANBRIDGE_DATA_DIR: dirs.data,
        SCANBRIDGE_CONFIG_DIR: dirs.config,
        SCANBRIDGE_API_URL: emulator.info.base_url,
        SCANBRIDGE_API_KEY: emulator.info.keys.pro,
      },
    );
    // Started: the tray is up and the main window has been shown.
    await shell.until('the tray and a shown main window', (s) => s.trays.length > 0 && windowOf(`${APP}/`)(s)?.visible);
  });
  /** A contract call from the main window's own page. */
  const call = (channel: string, payload?: unknown): Promise<unknown> =>
    shell.request('invoke', { channel, payload, frameUrl: `${APP}/`, window: 0 });

  afterAll(async () => {
    await shell?.stop();
    await emulator?.dispose();
  });

  it('holds the single-instance lock, and a second instance brings the main window forward', async () => {
    const state = await shell.state();
    expect(state.lockRequested).toBe(true);
    expect(state.quitted).toBe(false);
    const events = [
      'second-instance',
      'activate',
      'window-all-closed',
      'before-quit',
      'will-quit',
      'web-contents-created',
    ];
    expect(state.appEvents).toEqual(expect.arrayContaining(events));
    const before = windowOf(`${APP}/`)(state)?.calls.length ?? 0;
    await shell.request('appEvent', { event: 'second-instance' });
    const main = windowOf(`${APP}/`)(await shell.state());
    expect(main?.calls.slice(before)).toEqual([{ call: 'show' }, { call: 'focus' }]);
    // Still one main window.
    expect((await shell.state()).windows.filter((w) => w.url === `${APP}/`)).toHaveLength(1);
  });

  it('hardens the session: every permission denied, no request but to its own pages, app:// privileged', async () => {
    const verdicts = await shell.request('session', {
      permissions: ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen'],
      urls: [
        `${APP}/index.html`,
        `${APP}/assets/app.js`,
        'devtools://devtools/bundled/inspector.html',
        'data:text/plain,x',
        'blob:app://scanbridge/1',
        'https://example.com/',
        emulator.info.base_url,
        'file:///etc/passwd',
        'app://other/',
      ],
    });
    for (const p of verdicts.permissions)
      expect(p, p.permission).toEqual({ permission: p.permission, requested: false, checked: false });
    expect(verdicts.devicePermission).toBe(false);
    expect(Object.fromEntries(verdicts.requests.map((r) => [r.url, r.cancelled]))).toEqual({
      [`${APP}/index.html`]: false,
      [`${APP}/assets/app.js`]: false,
      'devtools://devtools/bundled/inspector.html': false,
      'data:text/plain,x': false,
      'blob:app://scanbridge/1': false,
      'https://example.com/': true,
      // The window never reaches the service itself: the agent does.
      [emulator.info.base_url]: true,
      'file:///etc/passwd': true,
      'app://other/': true,
    });
    const state = await shell.state();
    expect(state.privilegedSchemes).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);

    // Every web contents: no navigation, redirect or new window away from the app, no webview.
    const away = await shell.request('contents', { window: 0, url: 'https://evil.example/' });
    expect(away).toEqual({
      navigationPrevented: true,
      redirectPrevented: true,
      frameNavigationPrevented: true,
      windowOpen: 'deny',
      webviewPrevented: true,
    });
    const inside = await shell.request('contents', { window: 0, url: `${APP}/#/settings` });
    // Window.open is denied even for our own pages (the app opens no second window of itself).
    expect(inside).toMatchObject({
      navigationPrevented: false,
      redirectPrevented: false,
      frameNavigationPrevented: false,
    });
    expect(inside.windowOpen).toBe('deny');
    // Not an https link of the configured service: not opened in the browser either.
    expect((await shell.state()).openedExternally).toEqual([]);
  });

  it('serves the window on app:// with its CSP, and nothing outside it', async () => {
    const index = await shell.request('fetch', { url: `${APP}/` });
    expect(index.status).toBe(200);
    expect(index.body).toBe(readFileSync(join(root, 'renderer', 'dist', 'index.html'), 'utf8'));
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    const csp = index.headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    // The single-page app's routes fall back to the index.
    expect((await shell.request('fetch', { url: `${APP}/inbox` })).body).toBe(index.body);

    const traversal = await shell.request('fetch', { url: `${APP}/%2e%2e/%2e%2e/package.json` });
    expect(traversal.status).toBeGreaterThanOrEqual(400);
    expect(traversal.headers['content-security-policy']).toBe(csp);
    expect((await shell.request('fetch', { url: 'app://elsewhere/' })).status).toBe(404);
    expect((await shell.request('fetch', { url: `${APP}/`, method: 'POST' })).status).toBe(405);
  });

  it('opens an isolated, sandboxed main window on app:// whose preload exists', async () => {
    const main = windowOf(`${APP}/`)(await shell.state());
    expect(main?.visible).toBe(true);
    const prefs = main?.options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(prefs?.preload).toBe(join(root, 'main', '.build', 'preload.cjs'));
    expect(existsSync(prefs?.preload ?? '')).toBe(true);
  });

  it('registers every contract method, and refuses a call from a foreign frame', async () => {
    const state = await shell.state();
    expect([...state.handlers].sort()).toEqual(Object.keys(methods).sort());

    const own = await call('settings:get');
    // No keychain module here: the key from the environment is held for the session only.
    expect(await call('keys:status')).toMatchObject({
      ok: true,
      result: {
        keychain: { available: false, reason: 'no_module' },
        live: { present: true, session_only: true },
        active: 'live',
      },
    });
    expect(own).toMatchObject({ ok: true, result: { api_base_url: emulator.info.base_url } });
    for (const frameUrl of [
      'https://evil.example/',
      'file:///tmp/page.html',
      'app://other/',
      'app://user:pass@scanbridge/',
    ]) {
      const reply = await shell.request('invoke', { channel: 'settings:get', frameUrl, window: 0 });
      expect(reply, frameUrl).toEqual({ ok: false, error: { code: 'forbidden_origin', message: expect.any(String) } });
    }
    // Our own page, but in a subframe.
    const subframe = await shell.request('invoke', {
      channel: 'settings:get',
      frameUrl: `${APP}/`,
      subframe: true,
      window: 0,
    });
    expect(subframe).toMatchObject({ ok: false, error: { code: 'forbidden_origin' } });
  });

  it('labels the tray in the UI language: Spanish from the system, English once chosen', async () => {
    const tray = (await shell.state()).trays[0];
    const idle = join(root, 'assets', 'tray', 'idle.png');
    expect(tray).toEqual({
      image: idle,
      toolTip: 'ScanBridge: sin subidas en curso',
      menu: ['Abrir ScanBridge', '(separator)', 'Salir'],
      destroyed: false,
    });

    const reply = await call('settings:update', { language: 'en' });
    expect(reply).toMatchObject({ ok: true, result: { language: 'en' } });
    const english = await shell.until('English tray labels', (s) =>
      s.trays.find((t) => t.menu.includes('Open ScanBridge')),
    );
    expect(english).toEqual({
      image: idle,
      toolTip: 'ScanBridge: no uploads running',
      menu: ['Open ScanBridge', '(separator)', 'Quit'],
      destroyed: false,
    });
    expect((await shell.state()).trays).toHaveLength(1);
  });

  it("opens the patient display on the chosen display's bounds before going full screen, and keeps it there", async () => {
    const chose = await call('consent:settings', { display_id: penDisplay.id });
    expect(chose).toMatchObject({ ok: true });
    const listed = await call('consent:displays');
    expect(listed).toMatchObject({
      ok: true,
      result: [
        { id: 1, primary: true },
        { id: 2, primary: false },
        { id: 3, label: 'Pen display', width: 1024, height: 768 },
      ],
    });

    const opened = await call('consent:display-open', { exam_id: examId, signer_name: 'Ana Pérez' });
    expect(opened).toMatchObject({ ok: true });
    const patientUrl = `${APP}/index.html#/patient`;
    const patient = await shell.until('the patient display shown full screen', (s) => {
      const w = windowOf(patientUrl)(s);
      return w?.visible && w.fullScreen ? w : undefined;
    });
    const { x, y, width, height } = penDisplay.bounds;
    expect(patient.options).toMatchObject({ x, y, width, height, frame: false, show: false });
    expect(patient.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    const preload = patient.options.webPreferences?.preload ?? '';
    expect(preload).toBe(join(root, 'main', '.build', 'patient-preload.cjs'));
    expect(existsSync(preload)).toBe(true);
    // On the display's bounds first; full screen (which belongs to the display the window is on) after.
    const calls = patient.calls.map((c) =>
      'bounds' in c ? `setBounds ${JSON.stringify(c.bounds)}` : 'flag' in c ? `${c.call} ${c.flag}` : c.call,
    );
    const placed = calls.indexOf(`setBounds ${JSON.stringify(penDisplay.bounds)}`);
    expect(placed).toBeGreaterThanOrEqual(0);
    expect(placed).toBeLessThan(calls.indexOf('setFullScreen true'));
    expect(patient.kiosk).toBe(true);
    expect(patient.bounds).toEqual(penDisplay.bounds);

    // The patient display may call its session's methods only.
    const index = (await shell.state()).windows.findIndex((w) => w.contentsId === patient.contentsId);
    expect(patientMethodNames).toContain('patient:session');
    const own = await shell.request('invoke', { channel: 'patient:session', frameUrl: patientUrl, window: index });
    expect(own).toMatchObject({ ok: true, result: { state: 'active', signer_name: 'Ana Pérez' } });
    const other = await shell.request('invoke', { channel: 'settings:get', frameUrl: patientUrl, window: index });
    expect(other).toMatchObject({ ok: false, error: { code: 'forbidden_method' } });

    // The chosen display is unplugged: out of full screen, onto the next display's bounds, full screen again.
    await shell.request('screen', { displays: [primary, tablet], primaryDisplayId: 1, event: 'display-removed' });
    const moved = await shell.until('the patient display on the tablet', (s) => {
      const w = windowOf(patientUrl)(s);
      return w && w.bounds.x === tablet.bounds.x ? w : undefined;
    });
    expect(moved.calls.slice(-5)).toEqual([
      { call: 'setKiosk', flag: false },
      { call: 'setFullScreen', flag: false },
      { call: 'setBounds', bounds: tablet.bounds },
      { call: 'setFullScreen', flag: true },
      { call: 'setKiosk', flag: true },
    ]);

    // Only the operator closes it.
    const closed = await call('consent:display-close');
    expect(closed).toMatchObject({ ok: true });
    expect((await shell.state()).windows.find((w) => w.contentsId === patient.contentsId)?.destroyed).toBe(true);
  });

  it("writes the app's log in the data folder and shows its folder from Settings → Help", async () => {
    const logs = join(dirs.data, 'logs');
    expect(await call('support:open-log-folder')).toEqual({ ok: true, result: { opened: true, path: logs } });
    expect((await shell.state()).openedPaths).toEqual([logs]);
    const file = join(logs, `scanbridge-${localDay(new Date())}.log`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { cmd: string; msg: string; pid: number });
    expect(lines).toContainEqual(expect.objectContaining({ cmd: 'app', msg: 'app started', pid: expect.any(Number) }));
  });

  it("prints the patient's sheet through the system dialog from a hidden, hardened window, then removes both", async () => {
    const exam = await readyExam(
      emulator.info,
      emulator.info.keys.pro,
      filesBody('Hoja del paciente', undefined, { exam_type: 'cbct', patient_name: 'Inés Peña' }),
    );
    const id = String(exam.id);
    const before = (await shell.state()).windows.length;
    const reply = await call('share:handout', { exam_id: id, language: 'es', open: true });
    expect(reply).toMatchObject({ ok: true, result: { opened: true, file_name: `hoja-paciente-${id}.pdf` } });

    const sheet = join(dirs.data, 'handouts', `hoja-paciente-${id}.pdf`);
    const sheetUrl = pathToFileURL(sheet).href;
    const printer = await shell.until('the print window printed and gone', (s) => {
      const w = s.windows.slice(before).find((x) => x.printed.length > 0);
      return w?.destroyed ? w : undefined;
    });
    // Hidden, with the same hardening as every window, plus the PDF viewer in its own print session.
    expect(printer.options).toMatchObject({ show: false });
    expect(printer.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      plugins: true,
      partition: 'scanbridge-print',
    });
    expect(printer.options.webPreferences?.preload).toBeUndefined();
    // It loaded the sheet's file, printed it once with the system dialog, and was never shown itself.
    expect(printer.calls).toEqual([{ call: 'loadURL', url: sheetUrl }, { call: 'destroy' }]);
    expect(printer.printed).toEqual([
      {
        options: expect.objectContaining({ silent: false }),
        url: sheetUrl,
        fileHead: '%PDF-',
        fileBytes: expect.any(Number),
      },
    ]);
    expect(printer.printed[0]?.fileBytes).toBeGreaterThan(1000);
    // The sheet names a patient: removed once the dialog is done; nothing opened in another program.
    await vi.waitFor(() => expect(existsSync(sheet)).toBe(false), { timeout: 10_000, interval: 50 });
    expect((await shell.state()).openedExternally).toEqual([]);

    // The print session: no permission, nothing remote, no other file (nor this sheet, now printed).
    const verdicts = await shell.request('session', {
      partition: 'scanbridge-print',
      permissions: ['media', 'openExternal'],
      urls: [
        'chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/index.html',
        'https://example.com/',
        emulator.info.base_url,
        'file:///etc/passwd',
        sheetUrl,
      ],
    });
    for (const p of verdicts.permissions) expect(p).toMatchObject({ requested: false, checked: false });
    expect(verdicts.requests.map((r) => r.cancelled)).toEqual([false, true, true, true, true]);

    // When the viewer cannot show it, the window gets the bytes to download instead; nothing is left.
    await shell.request('pdfViewer', { fails: true });
    try {
      const count = (await shell.state()).windows.length;
      const fallback = await call('share:handout', { exam_id: id, language: 'en', open: true });
      expect(fallback).toMatchObject({ ok: true, result: { opened: false, file_name: `patient-sheet-${id}.pdf` } });
      const pdf = (fallback as { result: { pdf_base64: string } }).result.pdf_base64;
      expect(Buffer.from(pdf, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const failed = (await shell.state()).windows.slice(count);
      expect(failed.map((w) => ({ destroyed: w.destroyed, printed: w.printed.length }))).toEqual([
        { destroyed: true, printed: 0 },
      ]);
      expect(existsSync(join(dirs.data, 'handouts', `patient-sheet-${id}.pdf`))).toBe(false);
    } finally {
      await shell.request('pdfViewer', { fails: false });
    }
  });

  it('quits cleanly from the tray: windows close, the agent stops, its data is saved and nothing is left running', async () => {
    // Something for the agent to hold: a watched folder with a study waiting in the inbox.
    const scans = join(scratch, 'scans');
    const series = await writeCtSeries(join(scans, 'study-1'), {
      slices: 2,
      rows: 8,
      cols: 8,
      patientName: 'PEÑA^INÉS',
      patientId: 'Q-1',
    });
    const added = await call('folders:add', {
      path: scans,
      exam_type: 'cbct',
      mode: 'review',
      settle_seconds: 1,
      polling: false,
    });
    expect(added).toMatchObject({ ok: true });
    await shell.until('the study in the inbox', (s) =>
      windowOf(`${APP}/`)(s)?.sent.some(
        (m) => m.channel === 'inbox:changed' && Array.isArray(m.payload) && m.payload.length > 0,
      ),
    );

    // The patient display is open too: it refuses the patient's close, not the app's quit.
    expect(await call('consent:display-open', { exam_id: examId, signer_name: 'Ana Pérez' })).toMatchObject({
      ok: true,
    });
    await shell.until('the patient display shown', (s) => windowOf(`${APP}/index.html#/patient`)(s)?.visible);

    await shell.request('trayClick', { label: 'Quit' });
    const state = await shell.quitWithin();
    // The first quit waits for the agent to stop; the shell then quits again, and that one goes through.
    expect(state.quitRequests).toBe(2);
    expect(state.quitsRefusedByWindow).toBe(0);
    expect(state.quitted).toBe(true);
    expect(state.trays.map((t) => t.destroyed)).toEqual([true]);
    expect(state.windows.every((w) => w.destroyed)).toBe(true);
    // No watcher, timer, socket or worker left: the process ends by itself.
    expect(await shell.exited).toEqual({ code: 0, signal: null });
    expect(shell.stderr()).not.toContain('still running after the app quit');
    const inbox = readFileSync(join(dirs.data, 'agent', 'inbox.json'), 'utf8');
    expect(inbox).toContain(series.studyUid);
  });
});
