// The front desk's whole day in one pass (in Spanish, each screen checked in Spanish and English):
// first run with a key, a watch
// folder, a scanner export detected with its prefill (accents and ñ intact), the name edited, the
// upload followed to "ready", and the exam checked on the service side.
import { dropCbctExport } from '../support/e2e/scanner-exports';
import { expect, test } from '../support/e2e/app-fixtures';
import { listExams } from '../support/e2e/service-calls';
import { addWatchFolder, checkScreenInBoth, switchLanguage, texts, type Lang } from '../support/e2e/ui-steps';

const lang: Lang = 'es';
const editedName = 'Control de implante — Juan Carlos Muñoz Ñúñez';

test.describe('in es', () => {
  test.use({ locale: 'es-ES' });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test('a scanner export goes from the inbox to a ready exam with the edited name', async ({
    page,
    app,
    emulator,
    watchDir,
  }) => {
    const t = texts(lang);
    await page.goto(app.info.url);

    await test.step('First run', async () => {
      // First run: the key is verified (plan and scopes shown) and saved.
      await expect(page.getByRole('heading', { name: t('onboarding.title') })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await checkScreenInBoth(page, 'onboarding');
      await page.getByLabel(t('onboarding.keyLabel')).fill(emulator.info.keys.pro);
      await expect(page.getByTestId('key-kind-guess')).toContainText(t('onboarding.looksLive'));
      await page.getByRole('button', { name: t('onboarding.verify') }).click();
      await expect(page.getByTestId('key-verified')).toHaveText(t('onboarding.verified'));
      await expect(page.getByTestId('account-plan')).toHaveText(t('plans.pro'));
      await expect(page.getByTestId('account-scopes')).toContainText('exams:write');
      await checkScreenInBoth(page, 'onboarding-verified');
      await page.getByRole('button', { name: t('onboarding.save') }).click();
      await expect(page).toHaveURL(/#\/inbox$/);
      await expect(page.getByTestId('key-indicator')).toHaveAttribute('data-kind', 'live');
      await expect(page.getByTestId('sandbox-banner')).toHaveCount(0);
      await expect(page.getByTestId('inbox-empty')).toHaveText(t('inbox.emptyNoFolders'));
      await checkScreenInBoth(page, 'inbox-empty');
    });

    const { written, detail } =
      await test.step('A watch folder, then an export dropped into it as a scanner would', async () => {
        // A watch folder, then an export dropped into it as a scanner would.
        await addWatchFolder(page, t, watchDir);
        await checkScreenInBoth(page, 'settings', { fullPage: true });
        const written = await dropCbctExport(watchDir, 'EXPORT_0001', {
          patientName: 'MUÑOZ^JUAN CARLOS',
          patientId: '12345678Z',
          birthDate: '19800131',
          charset: 'latin1',
        });

        await page.getByRole('link', { name: t('nav.inbox') }).click();
        const item = page.getByTestId('inbox-item').first();
        await expect(item).toBeVisible({ timeout: 30_000 });
        await expect(item).toContainText('JUAN CARLOS MUÑOZ');
        const detail = page.getByTestId('inbox-detail');
        await expect(detail.getByLabel(t('inbox.fields.patientName'))).toHaveValue('JUAN CARLOS MUÑOZ');
        await expect(detail.getByLabel(t('inbox.fields.patientId'))).toHaveValue('12345678Z');
        await expect(detail.getByLabel(t('inbox.fields.birthDate'))).toHaveValue('1980-01-31');
        // The birth date is written the way each language writes dates.
        await expect(detail.getByText('31 ene 1980')).toBeVisible();
        await switchLanguage(page, 'en');
        await expect(detail.getByText('Jan 31, 1980')).toBeVisible();
        await switchLanguage(page, 'es');
        await expect(detail.getByLabel(t('inbox.fields.examType'))).toHaveValue('cbct');
        await expect(detail.getByLabel(t('inbox.fields.name'))).toHaveValue(/JUAN CARLOS MUÑOZ/);
        await expect(detail.getByTestId('series-row')).toHaveCount(2);
        await expect(detail.getByTestId('series-summary')).toContainText(String(written.files));
        await checkScreenInBoth(page, 'inbox');
        return { written, detail };
      });

    await test.step('The name is edited, then the study uploaded', async () => {
      // The name is edited, then the study uploaded.
      await detail.getByLabel(t('inbox.fields.name')).fill(editedName);
      await detail.getByRole('button', { name: t('inbox.upload') }).click();
      await expect(page.getByTestId('upload-queued')).toContainText(editedName);
      await page.getByTestId('see-uploads').click();
      await expect(page).toHaveURL(/#\/uploads$/);

      const job = page.getByTestId('upload-job').filter({ hasText: editedName });
      await expect(job).toBeVisible();
      await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 60_000 });
      await expect(job.getByTestId('upload-progress')).toHaveAttribute('data-value', '100');
      await expect(job.getByTestId('upload-stats')).toContainText(
        t('uploads.files', { done: written.files, total: written.files }),
      );
      await expect(job.getByTestId('upload-phase')).toHaveText(t('uploads.phase.ready'));
      const viewer = job.getByTestId('viewer-link');
      await expect(viewer).toHaveAttribute('href', /^https?:\/\//);
      await expect(viewer).toHaveAttribute('rel', /noopener/);
      await checkScreenInBoth(page, 'uploads');
    });

    const { exam } =
      await test.step('The service holds one ready exam with the edited name and the prefilled patient', async () => {
        // The service holds one ready exam with the edited name and the prefilled patient.
        const exams = await listExams(emulator.info, emulator.info.keys.pro);
        const exam = exams.find((e) => e.name === editedName);
        expect(exam, `exam named ${editedName} on the service`).toBeDefined();
        expect(exam?.status).toBe('ready');
        expect(exam?.exam_type).toBe('cbct');
        expect(exam?.patient_name).toBe('JUAN CARLOS MUÑOZ');
        return { exam };
      });

    await test.step('The inbox shows the study as uploaded', async () => {
      // The inbox shows the study as uploaded; the account counts the exam.
      await page.getByRole('link', { name: t('nav.inbox') }).click();
      await page
        .getByTestId('inbox-filter')
        .getByText(new RegExp(`^${t('inbox.filter.uploaded')}`))
        .click();
      await expect(page.getByTestId('inbox-item').first()).toHaveAttribute('data-status', 'uploaded');
      await checkScreenInBoth(page, 'inbox-uploaded');
    });

    await test.step('Both screens link the ready upload to its exam', async () => {
      // Both screens link the ready upload to its exam.
      const examId = exam?.id ?? '';
      await page.getByTestId('inbox-item').first().click();
      await page.getByTestId('inbox-exam-link').click();
      await expect(page.getByTestId('exam-detail')).toHaveAttribute('data-exam-id', examId);
      await expect(page.getByTestId('exam-title')).toHaveText(editedName);
      await page.getByRole('link', { name: t('nav.uploads') }).click();
      await page.getByTestId('upload-job').filter({ hasText: editedName }).getByTestId('exam-link').click();
      await expect(page.getByTestId('exam-detail')).toHaveAttribute('data-exam-id', examId);
      await page.getByRole('link', { name: t('nav.account') }).click();
      await expect(page.getByTestId('account-plan')).toHaveText(t('plans.pro'));
      await expect(page.getByTestId('exams-meter')).toBeVisible();
      await expect(page.getByTestId('storage-meter')).toBeVisible();
      await checkScreenInBoth(page, 'account');
    });
  });
});
