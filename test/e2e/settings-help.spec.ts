// Settings → Help in browser mode (`scanbridge serve`): "Open the log folder" names the folder the
// log is in (a page cannot open a folder), and "Save a support bundle" hands the browser a ZIP with
// the log of this very server (its `serve` lines), the connection check, the upload queue and the
// settings summary, and never the key. Each language gets its own screenshot of the section.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { openPromise } from 'yauzl';
import { localDay } from '../../main/core/log';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreen, type Lang, onboard, texts } from '../support/e2e/ui-steps';

async function readZip(path: string): Promise<Map<string, string>> {
  const zip = await openPromise(path, { validateEntrySizes: true, autoClose: false });
  const out = new Map<string, string>();
  try {
    for await (const e of zip.eachEntry())
      out.set(e.fileName, (await buffer(await zip.openReadStreamPromise(e))).toString('utf8'));
  } finally {
    zip.close();
  }
  return out;
}

for (const lang of ['es', 'en'] as Lang[]) {
  test.describe(`in ${lang}`, () => {
    test.use({ locale: lang === 'es' ? 'es-ES' : 'en-US' });

    test(`Settings → Help names the log folder and saves a support bundle (${lang})`, async ({
      page,
      app,
      emulator,
    }) => {
      const t = texts(lang);
      const key = emulator.info.keys.pro;
      await page.goto(app.info.url);
      await onboard(page, t, key);
      await page.getByRole('link', { name: t('nav.settings') }).click();
      const section = page.getByRole('region', { name: t('help.title') });
      await section.scrollIntoViewIfNeeded();

      await section.getByTestId('help-open-logs').click();
      await expect(section.getByTestId('help-logs-path')).toContainText(join(app.dataDir, 'logs'));

      const downloaded = page.waitForEvent('download');
      await section.getByTestId('help-save-bundle').click();
      const download = await downloaded;
      expect(download.suggestedFilename()).toBe(`scanbridge-support-${localDay(new Date())}.zip`);
      await expect(section.getByTestId('help-bundle-saved')).toBeVisible();
      const zip = await readZip(await download.path());
      expect([...zip.keys()].sort()).toEqual(
        [
          'README.txt',
          'connection-check.json',
          'settings.json',
          'upload-queue.json',
          `logs/scanbridge-${localDay(new Date())}.log`,
        ].sort(),
      );
      const log = (zip.get(`logs/scanbridge-${localDay(new Date())}.log`) ?? '')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { cmd: string; msg: string });
      expect(log).toContainEqual(expect.objectContaining({ cmd: 'serve', msg: 'command started' }));
      expect(JSON.parse(zip.get('connection-check.json') ?? '')).toMatchObject({ ok: true });
      expect(JSON.parse(zip.get('settings.json') ?? '')).toMatchObject({
        transport: 'http',
        settings: { key_in_use: 'live' },
      });
      expect([...zip.values()].join('\n')).not.toContain(key);

      await section.scrollIntoViewIfNeeded();
      await checkScreen(page, `settings-help-${lang}`);
      const shots = process.env['SCANBRIDGE_SHOTS_DIR'];
      if (shots) {
        mkdirSync(shots, { recursive: true });
        await page.screenshot({ path: join(shots, `settings-help-${lang}.png`) });
      }
    });
  });
}
