// The exam workspace is frugal with the hourly allowance, counted by the emulator's rate headers.
import { measureExamCalls, seedFive } from '../bench/exam-calls';
import { expect, test } from '../support/e2e/app-fixtures';

test.use({ throughLostAnswerProxy: true });

test('opening an exam costs at most 3 calls, again within a minute none, five exams with every panel under 40, one exam read per visit, one GET /me at start', async ({
  page,
  app,
  emulator,
  lostAnswers,
}) => {
  test.setTimeout(120_000);
  // The Free plan: its 100 calls an hour are what the budget is for, and its background refreshes are
  // 15 minutes apart, so none falls inside the measurement (on Pro one comes every 90 s).
  const key = emulator.info.keys.free;
  const ids = await seedFive(emulator, key);
  await app.rpc('keys:save', { key });
  const f = await measureExamCalls(page, app.info.url, emulator.info, key, ids, () => lostAnswers?.seen ?? []);
  expect(f.openDetail).toBeLessThanOrEqual(3);
  expect(f.openDetail).toBeGreaterThan(0);
  expect(f.reopenDetail).toBe(0);
  expect(f.browseFive).toBeLessThan(40);
  // Summary, takes and consent share one read of the exam; the window's first account read and the
  // background refresh at start share one GET /me.
  expect(f.examReadsPerVisit).toBe(1);
  expect(f.meAtStart).toBe(1);
});
