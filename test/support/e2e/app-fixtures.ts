// Playwright fixtures: a real emulator, a real `scanbridge serve` against it, and a watch folder,
// fresh for every test and removed after it.
import { test as base, expect } from '@playwright/test';
import { rmSync } from 'node:fs';
import { EmulatorProcess, type EmulatorOptions } from '../emulator/emulator';
import { LostAnswerProxy } from '../network/lost-answer-proxy';
import { makeWatchFolder } from './scanner-exports';
import { ServeProcess, type Keychain } from './serve-process';

type Options = {
  /** Options for a test's own emulator; without any, tests share one per worker (each test uses its own names). */
  emulatorOptions: EmulatorOptions | null;
  keychain: Keychain;
  /** The app talks to the service through a lost-answer proxy (the `lostAnswers` fixture) instead of directly. */
  throughLostAnswerProxy: boolean;
};

type WorkerFixtures = { sharedEmulator: EmulatorProcess };

type Fixtures = {
  emulator: EmulatorProcess;
  app: ServeProcess;
  watchDir: string;
  /** Fails the test on an uncaught page error or a blocked resource (CSP), checked after the test body. */
  pageProblems: string[];
  /** The lost-answer proxy in front of the emulator, when `throughLostAnswerProxy` is set; null otherwise. */
  lostAnswers: LostAnswerProxy | null;
};

export const test = base.extend<Options & Fixtures, WorkerFixtures>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const url = msg.location().url;
        // A contract call answered with an error status is logged by Chromium; the window shows it.
        if (/\/rpc\//.test(url) && /Failed to load resource/.test(msg.text())) return;
        // The event stream breaks when a test stops the service under it; the window reconnects.
        if (/\/events\?/.test(url) || /EventSource/.test(msg.text())) return;
        problems.push(`console error: ${msg.text()} (${url})`);
      });
      await use(problems);
      expect(problems, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],

  emulatorOptions: [null, { option: true }],
  keychain: ['private', { option: true }],
  throughLostAnswerProxy: [false, { option: true }],

  sharedEmulator: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const emulator = await EmulatorProcess.start();
      await use(emulator);
      await emulator.dispose();
    },
    { scope: 'worker' },
  ],

  emulator: async ({ emulatorOptions, sharedEmulator }, use) => {
    if (!emulatorOptions) return use(sharedEmulator);
    const emulator = await EmulatorProcess.start(emulatorOptions);
    await use(emulator);
    await emulator.dispose();
  },

  lostAnswers: async ({ emulator, throughLostAnswerProxy }, use) => {
    if (!throughLostAnswerProxy) return use(null);
    const proxy = await LostAnswerProxy.start(emulator.info.base_url);
    await use(proxy);
    await proxy.stop();
  },

  app: async ({ emulator, keychain, locale, lostAnswers }, use, testInfo) => {
    const lang = locale?.startsWith('es') ? 'es_ES.UTF-8' : 'en_US.UTF-8';
    const app = await ServeProcess.start({ apiUrl: lostAnswers?.baseUrl ?? emulator.info.base_url, keychain, lang });
    await use(app);
    await app.stop();
    if (app.forcedStops > 0) {
      testInfo.annotations.push({
        type: 'warning',
        description: 'scanbridge serve did not end on SIGTERM within 6 s and was killed',
      });
      await testInfo.attach('serve-stderr-at-kill', { body: app.stderr(), contentType: 'text/plain' });
    }
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('serve-stderr', { body: app.stderr(), contentType: 'text/plain' });
      await testInfo.attach('emulator-stderr', { body: emulator.stderr(), contentType: 'text/plain' });
    }
    await app.dispose();
  },

  // Playwright reads the fixtures a function needs from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  watchDir: async ({}, use) => {
    const dir = makeWatchFolder();
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
});

export { expect };
