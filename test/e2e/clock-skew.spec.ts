// `scanbridge serve` on a computer whose clock is two days ahead (libfaketime preloaded): the Inbox
// and Settings → "Check the connection" say so in words, in both languages. Uploads under the same
// fault are the CLI's tests (test/integration/faults/clock-skew.test.ts).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EmulatorProcess } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { ServeProcess } from '../support/e2e/serve-process';
import { checkScreenInBoth, onboard, texts } from '../support/e2e/ui-steps';

/** libfaketime as Debian installs it (/usr/lib/<arch>/faketime/), preloaded into the serve process. */
const libfaketime =
  readdirSync('/usr/lib')
    .map((arch) => join('/usr/lib', arch, 'faketime', 'libfaketime.so.1'))
    .find((p) => existsSync(p)) ?? 'libfaketime.so.1';

test('a clock two days ahead is said in the Inbox', async ({ page }) => {
  const emulator = await EmulatorProcess.start();
  const app = await ServeProcess.start({
    apiUrl: emulator.info.base_url,
    lang: 'es_CL.UTF-8',
    env: { LD_PRELOAD: libfaketime, FAKETIME: '+2d' },
  });
  const t = texts('es');
  try {
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);
    const notice = page.getByTestId('clock-skew');
    await expect(notice).toContainText(
      t('clockSkew.title', {
        span: t('clockSkew.days_other', { count: 2 }),
        direction: t('clockSkew.ahead'),
      }),
    );
    await checkScreenInBoth(page, 'inbox-clock-skew');

    // Settings → "Check the connection" says it too, and the check passes.
    await page.getByRole('link', { name: t('nav.settings') }).click();
    await page.getByTestId('check-connection').click();
    await expect(page.getByTestId('check-verdict')).toContainText(t('netcheck.works'), { timeout: 30_000 });
    const inCheck = page.getByTestId('check-clock-skew');
    await expect(inCheck).toBeVisible();
    await inCheck.scrollIntoViewIfNeeded();
    await checkScreenInBoth(page, 'settings-check-clock-skew');
  } finally {
    await app.stop();
    await emulator.dispose();
  }
});
