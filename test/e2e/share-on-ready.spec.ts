// Share-on-ready, in English and in Spanish: in the inbox's review form the front desk picks the
// study's referring dentist from the directory; once the exam is ready the dentist receives it
// (once: the emulator's mail log), and the exam's Summary says with whom and when it was shared.
// Settings first: the watch folder's fixed address (a bad one refused in the user's language) and,
// in English in depth, the listener's address and the sheet's paper, read back after a reload;
// the folder's address receives the exam too.
import type { Page } from '@playwright/test';
import { api } from '../support/emulator/emulator';
import { dropCbctExport } from '../support/e2e/scanner-exports';
import { expect, test } from '../support/e2e/app-fixtures';
import { addWatchFolder, checkScreen, onboard, texts, type Lang } from '../support/e2e/ui-steps';

type Mail = { kind: string; to: string[]; exam_id?: string; subject: string };
type Texts = ReturnType<typeof texts>;

/** The folder's rule: a bad address refused in the window's language, then (in depth) a good one saved. */
async function setFolderRule(page: Page, t: Texts, lang: Lang, address: string, inDepth: boolean): Promise<void> {
  const rule = page.getByTestId('folder-share-rule');
  await rule.getByLabel(t('handout.rule.to'), { exact: true }).fill(`${address}, recepcion@`);
  await rule.getByRole('button', { name: t('handout.rule.save') }).click();
  await expect(rule).toContainText(t('handout.rule.badEmails', { list: 'recepcion@' }));
  await rule.getByLabel(t('handout.rule.locale'), { exact: true }).selectOption(lang);
  if (!inDepth) return checkScreen(page, `settings-share-rule-${lang}`, { fullPage: true });
  await rule.getByLabel(t('handout.rule.to'), { exact: true }).fill(address);
  await rule.getByRole('button', { name: t('handout.rule.save') }).click();
  await expect(rule.getByRole('status')).toHaveText(t('handout.rule.saved'));

  const listener = page.getByTestId('settings-receive');
  await listener.getByTestId('receive-share-to').fill('pacs.en@clinica.example');
  await listener.getByTestId('receive-save').click();
  await expect(listener.getByRole('status')).toHaveText(t('common.saved'));
  await page.getByLabel(t('handout.paper.label'), { exact: true }).selectOption('A5');
  await listener.getByTestId('receive-share-rule').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await checkScreen(page, `settings-share-rule-${lang}`, { fullPage: true });

  await page.reload();
  await expect(page.getByTestId('folder-share-to')).toHaveValue(address);
  await expect(page.getByTestId('folder-share-locale')).toHaveValue(lang);
  await expect(page.getByTestId('receive-share-to')).toHaveValue('pacs.en@clinica.example');
  await expect(page.getByTestId('settings-handout-paper')).toHaveValue('A5');
}

const cases: { lang: Lang; locale: string; subject: string }[] = [
  { lang: 'en', locale: 'en-US', subject: 'Shared exam' },
  { lang: 'es', locale: 'es-ES', subject: 'Examen compartido' },
];

for (const { lang, locale, subject } of cases) {
  test.describe(`in ${lang}`, () => {
    test.use({ locale });

    test(`the referrer picked in the inbox receives the ready exam once (${lang})`, async ({
      page,
      app,
      emulator,
      watchDir,
    }) => {
      test.setTimeout(150_000);
      const t = texts(lang);
      const key = emulator.info.keys.pro;
      const dentist = `Dr. Tomás Ibáñez ${lang}`;
      const email = `tibanez.${lang}@clinica.example`;
      await api(emulator.info, key, 'POST', '/referrers', { name: dentist, email, specialty: 'Implantología' });
      await page.goto(app.info.url);
      await onboard(page, t, key);
      await addWatchFolder(page, t, watchDir);
      const fixed = `recepcion.${lang}@clinica.example`;
      await test.step("The folder's fixed address, the listener's and the sheet's paper in Settings", () =>
        setFolderRule(page, t, lang, fixed, lang === 'en'));
      await dropCbctExport(watchDir, `REFERRED_${lang}`, { patientName: 'ROJAS^ANA', patientId: `9${lang}` });

      const detail = page.getByTestId('inbox-detail');
      await test.step('The referrer is picked in the review form', async () => {
        await page.getByRole('link', { name: t('nav.inbox') }).click();
        await expect(page.getByTestId('inbox-item').first()).toBeVisible({ timeout: 30_000 });
        await detail.getByTestId('field-share-referrer').click();
        await page.getByRole('option', { name: new RegExp(dentist) }).click();
        await expect(detail.getByTestId('field-share-to')).toHaveValue(email);
        await detail.getByTestId('field-share-locale').selectOption(lang);
        await checkScreen(page, `inbox-referrer-${lang}`);
      });

      const examId = await test.step('Uploaded; the exam becomes ready', async () => {
        await detail.getByRole('button', { name: t('inbox.upload') }).click();
        await page.getByTestId('see-uploads').click();
        const job = page.getByTestId('upload-job').first();
        await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 60_000 });
        const href = (await job.getByTestId('exam-link').getAttribute('href')) ?? '';
        return href.split('/').pop() ?? '';
      });

      await test.step('The dentist receives it once, in the chosen language', async () => {
        const shares = async (): Promise<Mail[]> => {
          const { mail } = await emulator.control<{ mail: Mail[] }>('GET', `/mail?to=${encodeURIComponent(email)}`);
          return mail.filter((m) => m.kind === 'exam_share');
        };
        await expect.poll(async () => (await shares()).length, { timeout: 30_000 }).toBe(1);
        const [mail] = await shares();
        expect(mail?.exam_id).toBe(examId);
        expect(mail?.subject).toContain(subject);
        if (lang !== 'en') return;
        // The folder's fixed address, saved in Settings, gets the same single e-mail.
        const { mail: toFixed } = await emulator.control<{ mail: Mail[] }>(
          'GET',
          `/mail?to=${encodeURIComponent(fixed)}`,
        );
        expect(toFixed.filter((m) => m.kind === 'exam_share').map((m) => m.exam_id)).toEqual([examId]);
      });

      await test.step('The Summary says with whom and when', async () => {
        await page.evaluate((hash) => {
          window.location.hash = hash;
        }, `#/exams/${examId}`);
        const fact = page.getByTestId('fact-auto-share');
        await expect(fact).toContainText(email);
        await expect(fact).toContainText(lang === 'es' ? 'Compartido con' : 'Shared with');
        await checkScreen(page, `exam-summary-shared-${lang}`);
      });
    });
  });
}
