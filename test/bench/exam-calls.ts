// API calls the exam workspace spends, read from the emulator's X-RateLimit-Remaining header: opening
// an exam, opening it again within a minute, and browsing five exams with every panel opened once.
// Run by `npm run bench` (its own Chromium, emulator and `scanbridge serve`) and asserted by
// test/e2e/exams-budget.spec.ts.
import { chromium, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { EmulatorProcess, type EmulatorInfo } from '../support/emulator/emulator';
import { remainingCalls, seedExam } from '../support/e2e/exam-seeds';
import { ServeProcess } from '../support/e2e/serve-process';
import { LostAnswerProxy } from '../support/network/lost-answer-proxy';
import type { Bench } from './types';

export type ExamCallFigures = {
  /** Calls to open one exam's detail (exam, thumbnail, patient's other exams). */
  openDetail: number;
  /** Calls to open the same exam again within a minute. */
  reopenDetail: number;
  /** Calls for the Exams list, then five exams with every section (summary, edit, share, report, takes, consent) opened once. */
  browseFive: number;
  /**
   * GET /exams/{id} sent for one visit of an exam with every section opened, and GET /me sent as the
   * window opens: counted by path on a proxy in front of the service, when one is given.
   */
  examReadsPerVisit: number | null;
  meAtStart: number | null;
};

/** The requests the service was sent, as a proxy in front of it saw them (method and path). */
export type SeenRequests = () => readonly { method: string; path: string }[];

/** Counts the calls the window makes between readings; each reading costs one call, taken off. */
class CallCounter {
  private last = 0;
  private constructor(
    private readonly info: EmulatorInfo,
    private readonly key: string,
  ) {}

  static async start(info: EmulatorInfo, key: string): Promise<CallCounter> {
    const c = new CallCounter(info, key);
    c.last = await remainingCalls(info, key);
    return c;
  }

  /** Calls made by others since the previous reading. */
  async take(): Promise<number> {
    const now = await remainingCalls(this.info, this.key);
    const spent = this.last - now - 1;
    this.last = now;
    return spent;
  }
}

/**
 * Waits until the app's start-up refreshes (notifications, account, activity) are over: two readings
 * in a row, 2 s apart, see no call but their own. On the Free plan the next background refresh is
 * 15 minutes away, so what the returned counter counts from here is the window's own spending.
 */
async function counterOnceQuiet(info: EmulatorInfo, key: string): Promise<CallCounter> {
  const counter = await CallCounter.start(info, key);
  for (let quiet = 0, rounds = 0; quiet < 2; rounds++) {
    if (rounds >= 15) throw new Error('the app kept calling the service in the background for 30 s');
    await sleep(2000);
    quiet = (await counter.take()) === 0 ? quiet + 1 : 0;
  }
  return counter;
}

/** Waits until the window has nothing in flight: every loader of the open section has settled. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelectorAll('.mantine-Loader-root, [data-state="loading"]').length === 0,
  );
  await page.waitForTimeout(400);
}

async function openExam(page: Page, id: string): Promise<void> {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, '#/exams');
  await page.locator(`[data-testid="exam-row"][data-exam-id="${id}"]`).click();
  await page.getByTestId('exam-facts').waitFor();
  await page.getByTestId('patient-exams').locator('ul, p').first().waitFor();
  await settle(page);
}

async function openSection(page: Page, tab: string, ready: string): Promise<void> {
  await page.getByTestId(`exam-tab-${tab}`).click();
  await page.locator(ready).first().waitFor();
  await settle(page);
}

/**
 * Drives the running app (`appUrl`, a Free-plan key already saved) in `page` over the exams `ids` (newest
 * first, at least five) and counts the calls each step costs.
 */
export async function measureExamCalls(
  page: Page,
  appUrl: string,
  info: EmulatorInfo,
  key: string,
  ids: string[],
  seen?: SeenRequests,
): Promise<ExamCallFigures> {
  const count = (from: number, re: RegExp): number =>
    (seen?.() ?? []).slice(from).filter((r) => r.method === 'GET' && re.test(r.path)).length;
  const atOpen = seen?.().length ?? 0;
  await page.goto(appUrl);
  await page.getByTestId('key-indicator').waitFor();
  await settle(page);
  const counter = await counterOnceQuiet(info, key);
  const meAtStart = seen ? count(atOpen, /\/me(\?|$)/) : null;
  let browseFive = 0;

  await page.locator('nav a[href="#/exams"]').click();
  await page.getByTestId('exam-row').first().waitFor();
  await settle(page);
  browseFive += await counter.take();

  let openDetail = -1;
  let examReadsPerVisit: number | null = null;
  for (const id of ids.slice(0, 5)) {
    const visit = seen?.().length ?? 0;
    await openExam(page, id);
    const detail = await counter.take();
    if (openDetail < 0) openDetail = detail;
    browseFive += detail;
    await openSection(page, 'edit', '[data-testid="exam-edit"]');
    await openSection(page, 'share', '[data-testid="share-embed"][data-enabled]');
    await page.getByTestId('public-url').waitFor();
    await openSection(page, 'report', '[data-testid="report-panel"]:not([data-state="loading"])');
    await openSection(page, 'takes', '[data-testid="takes-panel"]');
    await openSection(page, 'consent', '[data-testid="consent-status"]');
    browseFive += await counter.take();
    if (seen && examReadsPerVisit === null) examReadsPerVisit = count(visit, new RegExp(`/exams/${id}(\\?|$)`));
  }

  await openExam(page, ids[0] ?? '');
  const reopenDetail = await counter.take();
  return { openDetail, reopenDetail, browseFive, examReadsPerVisit, meAtStart };
}

/** Five ready exams of one patient on `key`'s account, newest first; two with their thumbnail generated. */
export async function seedFive(emulator: EmulatorProcess, key: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= 5; i++)
    ids.push(
      await seedExam(emulator.info, key, {
        name: `Control ${i}`,
        patient_name: 'MARÍA JOSÉ ROJAS',
        patient_id: '15.555.555-5',
      }),
    );
  for (const id of ids.slice(0, 2)) await emulator.control('POST', `/exams/${id}/thumbnail`);
  return ids.reverse();
}

export const benchExamCalls: Bench = async () => {
  const emulator = await EmulatorProcess.start();
  // Through a proxy that passes everything on: it counts the requests by path.
  const proxy = await LostAnswerProxy.start(emulator.info.base_url);
  const app = await ServeProcess.start({ apiUrl: proxy.baseUrl, keychain: 'none' });
  const browser = await chromium.launch({
    ...(existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    const key = emulator.info.keys.free;
    const ids = await seedFive(emulator, key);
    await app.rpc('keys:save', { key });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const f = await measureExamCalls(page, app.info.url, emulator.info, key, ids, () => proxy.seen);
    return {
      title: 'Exam workspace: API calls on the Free plan (X-RateLimit-Remaining of the emulator)',
      figures: [
        {
          name: 'open an exam (summary with thumbnail and the patient’s other exams)',
          value: f.openDetail,
          unit: 'calls',
          goal: '≤ 3',
          met: f.openDetail <= 3,
        },
        {
          name: 'open the same exam again within a minute',
          value: f.reopenDetail,
          unit: 'calls',
          goal: '0',
          met: f.reopenDetail === 0,
        },
        {
          name: 'Exams list, then 5 exams with summary, edit, share, report, takes and consent each opened once',
          value: f.browseFive,
          unit: 'calls',
          goal: '< 40',
          met: f.browseFive < 40,
        },
        {
          name: 'GET /exams/{id} for one visit with every section opened',
          value: f.examReadsPerVisit ?? -1,
          unit: 'reads',
          goal: '1',
          met: f.examReadsPerVisit === 1,
        },
        {
          name: 'GET /me as the window opens',
          value: f.meAtStart ?? -1,
          unit: 'reads',
          goal: '1',
          met: f.meAtStart === 1,
        },
      ],
      details:
        'Each exam costs GET /exams/{id}, /thumbnail and /patient-exams; Share adds the embed state (GET /embed), Report the report (GET /report), Consent the consent (GET /consent); Takes and Consent reuse the exam read the summary made (main keeps it for a minute, dropped by any change to the exam); the clinic public page address (GET /access-pin, the same for every exam) and the referrers directory are asked once per session; the PIN itself comes with the exam. Edit spends nothing until saved.',
    };
  } finally {
    await browser.close();
    await app.dispose();
    await proxy.stop();
    await emulator.dispose();
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchExamCalls(), null, 2));
}
