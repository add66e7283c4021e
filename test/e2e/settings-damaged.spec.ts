// The settings file is found damaged when the app starts (cut short on disk): the window says so on
// every screen, that the last good copy was put back (the clinic's watch folder is still there) or
// that the defaults are in use, until staff say they read it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newWatchFolder, openSettingsStore, readSettingsDamage } from '../../main/core/settings';
import { EmulatorProcess } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { ServeProcess } from '../support/e2e/serve-process';
import { checkScreenInBoth, onboard, texts } from '../support/e2e/ui-steps';

/** A home whose settings (Spanish, one watch folder) were saved whole once, then cut short. */
function damagedHome(keepCopy: boolean): { home: string; watched: string } {
  const home = mkdtempSync(join(tmpdir(), 'sb-e2e-settings-damaged-'));
  const config = join(home, 'config');
  const watched = join(home, 'scanner-export');
  mkdirSync(watched, { recursive: true });
  const store = openSettingsStore({ cwd: config });
  store.update({ language: 'es', watch_folders: [newWatchFolder({ path: watched })] });
  const text = readFileSync(store.path, 'utf8');
  writeFileSync(store.path, text.slice(0, Math.floor(text.length / 2)));
  if (!keepCopy) writeFileSync(join(config, 'settings.last-good.json'), '');
  return { home, watched };
}

test('restored from the last good copy: said on every screen until dismissed', async ({ page }) => {
  const emulator = await EmulatorProcess.start();
  const { home, watched } = damagedHome(true);
  const app = await ServeProcess.start({ apiUrl: emulator.info.base_url, home });
  try {
    const t = texts('es');
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);
    const alert = page.getByTestId('settings-damage');
    await expect(alert).toContainText(t('settingsDamage.restoredTitle'));
    await checkScreenInBoth(page, 'settings-damaged-restored');

    await page.getByRole('link', { name: t('nav.settings') }).click();
    await expect(page.getByText(watched).first()).toBeVisible();
    await expect(alert).toBeVisible();
    await alert.getByRole('button', { name: t('settingsDamage.dismiss') }).click();
    await expect(alert).toHaveCount(0);
    expect(readSettingsDamage(app.configDir)).toBeNull();
  } finally {
    await app.stop();
    await emulator.dispose();
    rmSync(home, { recursive: true, force: true });
  }
});

test('no good copy: the defaults are in use, and it is said', async ({ page }) => {
  const emulator = await EmulatorProcess.start();
  const { home } = damagedHome(false);
  const app = await ServeProcess.start({ apiUrl: emulator.info.base_url, home, lang: 'es_CL.UTF-8' });
  try {
    const t = texts('es');
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);
    await expect(page.getByTestId('settings-damage')).toContainText(t('settingsDamage.defaultsTitle'));
    await checkScreenInBoth(page, 'settings-damaged-defaults');
  } finally {
    await app.stop();
    await emulator.dispose();
    rmSync(home, { recursive: true, force: true });
  }
});
