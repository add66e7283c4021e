// A watch folder that goes away (a share dropped; here the folder is renamed away) is said in the
// Inbox with the time it went, and the notice goes once the folder is back and watched again.
import { renameSync } from 'node:fs';
import { EmulatorProcess } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { ServeProcess } from '../support/e2e/serve-process';
import { addWatchFolder, checkScreenInBoth, onboard, texts } from '../support/e2e/ui-steps';

test('a watch folder out of reach is said in the Inbox until it is back', async ({ page, watchDir }) => {
  const emulator = await EmulatorProcess.start();
  const app = await ServeProcess.start({ apiUrl: emulator.info.base_url, lang: 'es_CL.UTF-8' });
  const t = texts('es');
  try {
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);
    await addWatchFolder(page, t, watchDir);
    await page.getByRole('link', { name: t('nav.inbox') }).click();

    renameSync(watchDir, `${watchDir}.away`);
    const notice = page.getByTestId('folder-unreachable');
    await expect(notice).toContainText(watchDir, { timeout: 15_000 });
    await checkScreenInBoth(page, 'inbox-folder-unreachable');

    renameSync(`${watchDir}.away`, watchDir);
    await expect(notice).toHaveCount(0, { timeout: 15_000 });
  } finally {
    await app.stop();
    await emulator.dispose();
  }
});
