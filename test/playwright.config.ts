// End-to-end tests: Debian's Chromium drives the browser-mode app (`scanbridge serve`) against a real
// emulator. No browser is ever downloaded: the system Chromium is used when present.
import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Chromium's headless shell (Debian's `chromium-headless-shell`, the same build as `chromium`; what
// Playwright itself runs for headless tests): the same renderer, without the desktop browser around
// it, so every spec costs markedly less CPU and wall time on the suite's 2-core machine. The full
// browser serves when the shell is not installed.
const headlessShell = '/usr/lib/chromium/chromium-headless-shell';
const systemChromium = existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium';

export default defineConfig({
  testDir: fileURLToPath(new URL('./e2e', import.meta.url)),
  testMatch: '**/*.spec.ts',
  globalSetup: fileURLToPath(new URL('./support/e2e/global-setup.ts', import.meta.url)),
  outputDir: fileURLToPath(new URL('.artifacts/playwright', import.meta.url)),
  // Every test has its own `scanbridge serve`, watch folder and browser context, and a worker's tests
  // share that worker's emulator under names of their own: tests of one file may run on both cores.
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env['CI'],
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'Europe/Madrid',
    // A failed test keeps a trace of its actions, network calls and console, beside the failure
    // screenshot, the page's ARIA snapshot (error-context.md) and the stderr of serve and the emulator.
    // Without the screencast (filming every frame cost a third of the browser's CPU) and without DOM
    // snapshots (serialising the page at every action: 253 → 210 CPU-s over six specs, in one
    // measurement on a noisy machine). To step through a failure's DOM, rerun it with `--trace on`.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(existsSync(systemChromium) ? { executablePath: systemChromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
