// Honest words on the screens staff glance at: the header's request meter says what its count is
// (calls left this hour, not "961/1000", which reads as calls used), and the connection check on a
// plain-http service says TLS is not used instead of "not tested, an earlier step failed", with
// its figures in the window's language ("569,2 Mbit/s" in Spanish).
import { expect, test } from '../support/e2e/app-fixtures';
import { type Lang, onboard, screenshot, texts } from '../support/e2e/ui-steps';

for (const lang of ['es', 'en'] as Lang[]) {
  test.describe(`honest words (${lang})`, () => {
    test.use({ locale: lang === 'es' ? 'es-ES' : 'en-US' });

    test('the meter says calls left this hour; the check on http says TLS is not used', async ({
      page,
      app,
      emulator,
    }) => {
      const t = texts(lang);
      await page.goto(app.info.url);
      await onboard(page, t, emulator.info.keys.pro);
      const meter = page.getByTestId('rate-meter');
      const words = lang === 'es' ? /^quedan [\d.]+ de [\d.]+ esta hora$/ : /^[\d,]+ of [\d,]+ left this hour$/;
      await expect(meter.locator('p')).toHaveText(words);
      await screenshot(page, `header-meter-${lang}`);

      await page.getByRole('link', { name: t('nav.settings') }).click();
      await page.getByTestId('check-connection').click();
      await expect(page.getByTestId('check-verdict')).toContainText(t('netcheck.works'));
      const tls = page.getByTestId('check-step-tls');
      await expect(tls).toHaveAttribute('data-status', 'not_used');
      await expect(tls).toContainText(t('netcheck.status.not_used'));
      await expect(tls).toContainText(t('netcheck.notUsed'));
      await expect(tls).not.toContainText(t('netcheck.notChecked'));
      const speed = page.getByTestId('check-step-upload_speed');
      await expect(speed).toHaveAttribute('data-status', 'ok');
      await expect(speed).toContainText(lang === 'es' ? /\d+,\d Mbit\/s/ : /\d+\.\d Mbit\/s/);
      await page.getByTestId('check-steps').scrollIntoViewIfNeeded();
      await screenshot(page, `connection-check-http-${lang}`);
    });
  });
}

for (const lang of ['es', 'en'] as Lang[]) {
  test.describe(`the service down (${lang})`, () => {
    test.use({ locale: lang === 'es' ? 'es-ES' : 'en-US', throughLostAnswerProxy: true });

    test('the Inbox says the service cannot be reached, and why', async ({ page, app, emulator, lostAnswers }) => {
      const t = texts(lang);
      await page.goto(app.info.url);
      await onboard(page, t, emulator.info.keys.pro);
      await expect(page.getByTestId('service-unreachable')).toHaveCount(0);
      // The service goes away (its address now refuses connections); the next call finds out.
      const host = new URL(lostAnswers?.baseUrl ?? '').host;
      await lostAnswers?.stop();
      await page.getByRole('link', { name: t('nav.account') }).click();
      await page.getByRole('button', { name: t('common.refresh') }).click();
      await page.getByRole('link', { name: t('nav.inbox') }).click();
      const notice = page.getByTestId('service-unreachable');
      await expect(notice).toContainText(t('reach.title'));
      await expect(notice).toContainText(t('reach.waiting'));
      await expect(notice).toContainText(t('reach.problem.unreachable', { host }));
      await screenshot(page, `inbox-service-down-${lang}`);
    });
  });
}
