// A screen checked while one of its reads is still out of the service's hands: the spinner it shows
// is a named status, so the accessibility check passes. A spinner that carried a name without a role
// failed axe's aria-prohibited-attr, and a check that ran before a read had answered (the Share
// screen's, now and then) failed with it.
import { expect, test } from '../support/e2e/app-fixtures';
import { expectNoSeriousA11yViolations, onboard, texts } from '../support/e2e/ui-steps';

test('a screen whose list is still being read passes the accessibility check', async ({ page, app, emulator }) => {
  const t = texts('en');
  await page.goto(app.info.url);
  await onboard(page, t, emulator.info.keys.pro);
  // The list's read is held open by the service: the screen stays on its spinner.
  await emulator.control('POST', '/faults', { target: 'api', mode: 'stall', count: 1, match: 'GET /api/v1/webhooks' });
  await page.evaluate(() => (location.hash = '#/webhooks'));
  const spinner = page.getByLabel(t('common.loading'), { exact: true });
  await expect(spinner).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'webhooks-loading');
  // Still loading: the check above ran on the spinner.
  await expect(spinner).toBeVisible();
});
