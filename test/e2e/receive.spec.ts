// The DICOM listener as staff set it up: Settings → "Receive from scanners (DICOM)" turned on with
// what to type into the scanner, its state in words, then a study a scanner (DCMTK's storescu)
// sends lands in the Inbox saying where it came from. The flow runs in Spanish; each screen is
// checked in Spanish and in English.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCtSeries } from '../fixtures/dicom/generate';
import { dcmtk, storescu } from '../support/harness/receive-harness';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreenInBoth, onboard, texts, type Lang } from '../support/e2e/ui-steps';
import { freePort } from '../support/network/free-port';

const lang: Lang = 'es';
test.describe('in es', () => {
  test.use({ locale: 'es-ES' });
  // Two screens with their accessibility checks, a listener start and a DICOM transfer.
  test.setTimeout(180_000);

  test(`turning the DICOM listener on and receiving a study from a scanner`, async ({ page, app, emulator }) => {
    const t = texts(lang);
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);
    const port = await freePort();

    await test.step('Staff turn the listener on in Settings and read what to type into the scanner', async () => {
      await page.getByRole('link', { name: t('nav.settings') }).click();
      const section = page.getByTestId('settings-receive');
      await expect(section.getByTestId('receive-state')).toHaveText(t('receive.state.stopped'));
      await section.getByLabel(t('receive.enabled')).check();
      await section.getByTestId('receive-port').fill(String(port));
      await section.getByTestId('receive-quiet').fill('1');
      await section.getByTestId('receive-allowed').fill('STORESCU');
      await section.getByTestId('receive-save').click();
      await expect(section.getByTestId('receive-state')).toHaveText(t('receive.state.listening', { port }), {
        timeout: 15_000,
      });
      await expect(section.getByTestId('receive-hint')).toContainText(`${port}`);
      await expect(section.getByTestId('receive-hint')).toContainText('SCANBRIDGE');
      // The lower half of the section (the hint and the state) in view; the whole page in the -full shot.
      await section.getByTestId('receive-save').scrollIntoViewIfNeeded();
      await checkScreenInBoth(page, 'settings-receive', { fullPage: true });
    });

    await test.step('A sender not on the allow-list is refused, and the section says so in words', async () => {
      const refused = await dcmtk('echoscu', ['-aet', 'PACS', '-aec', 'SCANBRIDGE', '127.0.0.1', String(port)]);
      expect(refused.code).not.toBe(0);
      const errors = page.getByTestId('settings-receive').getByTestId('receive-errors');
      await expect(errors).toContainText(
        t('core.receive.problem.not_allowed', { calling_aet: 'PACS', address: '127.0.0.1' }),
        { timeout: 15_000 },
      );
      await errors.scrollIntoViewIfNeeded();
      await checkScreenInBoth(page, 'settings-receive-problem');
    });

    await test.step('A scanner sends a CT study; it waits in the Inbox saying where it came from', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sb-e2e-scan-'));
      try {
        const series = await writeCtSeries(dir, {
          slices: 4,
          rows: 32,
          cols: 32,
          patientName: 'RECIBIDO^ANA',
          patientId: `RECV-${lang}`,
          studyDescription: 'CBCT maxilar',
          studyDate: '20260302',
        });
        const sent = await storescu(port, [series.dir]);
        expect(sent.code, sent.stderr).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const section = page.getByTestId('settings-receive');
      await expect(section.getByTestId('receive-last')).toContainText('STORESCU', { timeout: 15_000 });
      await page.getByRole('link', { name: t('nav.inbox') }).click();
      const from = page.getByTestId('inbox-detail').getByTestId('inbox-received-from');
      await expect(from).toHaveText(t('receive.from', { aet: 'STORESCU', address: '127.0.0.1' }), {
        timeout: 30_000,
      });
      await checkScreenInBoth(page, 'inbox-received');
    });
  });
});
