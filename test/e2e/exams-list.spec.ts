// The Exams screen with 2000 exams on the account: the list stays virtualised (a few dozen rows in
// the page whatever was loaded), scrolling fetches at most one page per step, newest first.
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreen, texts } from '../support/e2e/ui-steps';

test('2000 exams: virtualised list, one page per scroll step, newest first, filter', async ({
  page,
  app,
  emulator,
}) => {
  test.setTimeout(180_000);
  const t = texts('en');
  const key = emulator.info.keys.ultra;
  // Exams announced in zip mode and never uploaded, created in one control call (each as POST /exams
  // would): enough for a long list.
  const total = 2000;
  const seeded = await emulator.control<{ ids: string[] }>('POST', '/exams/seed', {
    key,
    exams: Array.from({ length: total }, (_, i) => ({
      name: `Estudio ${String(i).padStart(4, '0')}`,
      patient_name: `PACIENTE ${i}`,
      patient_id: `ID-${i}`,
      upload_mode: 'zip',
      zip_size_bytes: 1024,
    })),
  });
  expect(seeded.ids).toHaveLength(total);
  await app.rpc('keys:save', { key });
  const listCalls: number[] = [];
  page.on('request', (r) => {
    if (/\/rpc\/exams(:|%3A)list$/i.test(r.url())) listCalls.push(Date.now());
  });
  await page.goto(app.info.url);
  await page.getByRole('link', { name: t('exams.nav') }).click();
  const list = page.getByTestId('exams-list');
  await expect(page.getByTestId('exam-row').first()).toBeVisible();
  await expect(page.getByTestId('exams-count')).toContainText('2,000');
  expect(listCalls.length).toBe(1);
  await checkScreen(page, 'exams-list-2000-en');

  let steps = 0;
  let maxRows = 0;
  let longestStepMs = 0;
  for (;;) {
    const before = listCalls.length;
    const t0 = Date.now();
    await list.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForTimeout(150);
    await expect.poll(() => page.getByTestId('exams-loading-more').count()).toBe(0);
    longestStepMs = Math.max(longestStepMs, Date.now() - t0);
    steps++;
    expect(listCalls.length - before, 'list pages fetched by one scroll step').toBeLessThanOrEqual(1);
    maxRows = Math.max(maxRows, await page.getByTestId('exam-row').count());
    const loaded = await page.getByTestId('exams-count').textContent();
    if (loaded?.startsWith('2,000 of') || steps > 60) break;
  }
  expect(await page.getByTestId('exams-count').textContent()).toBe(
    t('exams.count', { shown: '2,000', total: '2,000' }),
  );
  expect(listCalls.length).toBe(40);
  expect(maxRows, 'rows in the page stay few').toBeLessThan(40);
  // Newest first: at the very end are the first exams created (the first batch of 20, sent at once).
  await list.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(page.getByTestId('exam-row').last().getByTestId('exam-name')).toHaveText(/^Estudio 00[01]\d$/);
  expect(listCalls.length).toBe(40);
  test.info().annotations.push({
    type: 'figures',
    description: `${steps} scroll steps, ${listCalls.length} list calls, at most ${maxRows} rows in the page, slowest step ${longestStepMs} ms`,
  });

  // The filter searches what is loaded, accent- and punctuation-blind.
  await page.getByLabel(t('exams.filterLabel')).fill('id1999');
  await expect(page.getByTestId('exam-row')).toHaveCount(1);
  await expect(page.getByTestId('exam-row').getByTestId('exam-name')).toHaveText('Estudio 1999');
  await expect(page.getByTestId('exam-row').getByTestId('exam-status')).toHaveText(t('exams.status.uploading'));
});
