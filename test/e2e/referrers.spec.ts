// The directory of referring dentists, against the emulator: a dentist added in the window is on
// the service with what was typed; an edit and a delete reach it too; a bad e-mail is caught before
// anything is sent; a sandbox key says nothing is kept. The flow runs in Spanish; each screen is
// checked in Spanish and in English.
import { api } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreenInBoth, onboard, texts } from '../support/e2e/ui-steps';

type Referrer = { id: string; name: string; email: string | null; phone: string | null; specialty: string | null };

test.describe('referrers (es)', () => {
  const lang = 'es' as const;
  test.use({ locale: 'es-ES' });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test('a referrer is added, found, edited and deleted on the service', async ({ page, app, emulator }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const listOnService = async (): Promise<Referrer[]> =>
      (await api(emulator.info, key, 'GET', '/referrers')).json['referrers'] as Referrer[];
    const name = `Dra. Ñuñoa Pérez ${lang} ${Date.now()}`;
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.getByRole('link', { name: t('referrers.nav') }).click();
    await expect(page.getByRole('heading', { name: t('referrers.title') })).toBeVisible();

    const { row, created } = await test.step('A bad e-mail is caught in the window', async () => {
      // A bad e-mail is caught in the window: nothing is sent.
      const before = (await listOnService()).length;
      await page.getByTestId('referrer-add').click();
      const dialog = page.getByRole('dialog', { name: t('referrers.addTitle') });
      await dialog.getByTestId('referrer-name').fill(name);
      await dialog.getByTestId('referrer-email').fill('ana.perez@clinica');
      await dialog.getByTestId('referrer-specialty').fill('Ortodoncia');
      await dialog.getByTestId('referrer-save').click();
      await expect(dialog.getByText(t('referrers.problems.email_invalid'))).toBeVisible();
      await expect(dialog.getByTestId('referrer-email')).toHaveAttribute('aria-invalid', 'true');
      await checkScreenInBoth(page, 'referrers-dialog-error');
      expect((await listOnService()).length).toBe(before);

      await dialog.getByTestId('referrer-email').fill('ana.perez@clinica.cl');
      await dialog.getByTestId('referrer-save').click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId('referrers-notice')).toContainText(t('referrers.created', { name }));
      const row = page.getByTestId('referrer-row').filter({ hasText: name });
      await expect(row).toContainText('ana.perez@clinica.cl');

      const created = (await listOnService()).find((r) => r.name === name);
      expect(created).toMatchObject({ name, email: 'ana.perez@clinica.cl', specialty: 'Ortodoncia', phone: null });
      await expect(row).toHaveAttribute('data-id', created?.id ?? '');
      return { row, created };
    });

    await test.step("The list is in the service's order", async () => {
      // The list is in the service's order (by name) and the search narrows it.
      await page.getByTestId('referrers-search').fill(`ñuñoa ${lang}`);
      await expect(page.getByTestId('referrer-row')).toHaveCount(1);
      await checkScreenInBoth(page, 'referrers-list');
    });

    await test.step('An edit', async () => {
      // An edit: the phone is added, everything else stays.
      await row.getByRole('button', { name: t('referrers.editOne', { name }) }).click();
      const edit = page.getByRole('dialog', { name: t('referrers.editTitle', { name }) });
      await edit.getByTestId('referrer-phone').fill('+56 9 1234 5678');
      await edit.getByTestId('referrer-save').click();
      await expect(page.getByTestId('referrers-notice')).toContainText(t('referrers.updated', { name }));
      await expect(row).toContainText('+56 9 1234 5678');
      const edited = (await listOnService()).find((r) => r.id === created?.id);
      expect(edited).toMatchObject({
        name,
        email: 'ana.perez@clinica.cl',
        specialty: 'Ortodoncia',
        phone: '+56 9 1234 5678',
      });
    });

    await test.step('Delete asks first', async () => {
      // Delete asks first; cancelling keeps the dentist.
      await row.getByRole('button', { name: t('referrers.deleteOne', { name }) }).click();
      const confirm = page.getByRole('dialog', { name: t('referrers.deleteTitle') });
      await expect(confirm).toContainText(name);
      await checkScreenInBoth(page, 'referrers-delete-confirm');
      await confirm.getByRole('button', { name: t('common.cancel') }).click();
      await expect(row).toBeVisible();
      expect((await listOnService()).some((r) => r.id === created?.id)).toBe(true);
      await row.getByRole('button', { name: t('referrers.deleteOne', { name }) }).click();
      await page.getByTestId('referrer-delete-confirm').click();
      await expect(page.getByTestId('referrers-notice')).toContainText(t('referrers.deleted', { name }));
      await expect(row).toHaveCount(0);
      expect((await listOnService()).some((r) => r.id === created?.id)).toBe(false);
    });
  });

  test('with a sandbox key the screen says nothing is kept', async ({ page, app, emulator }) => {
    const t = texts(lang);
    const name = `Prueba sandbox ${lang} ${Date.now()}`;
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.sandbox);
    await page.getByRole('link', { name: t('referrers.nav') }).click();
    await expect(page.getByTestId('referrers-sandbox')).toContainText(t('referrers.sandboxTitle'));
    await expect(page.getByTestId('referrers-empty')).toHaveText(t('referrers.emptySandbox'));
    await page.getByTestId('referrer-add').click();
    await page.getByTestId('referrer-name').fill(name);
    await page.getByTestId('referrer-save').click();
    await expect(page.getByTestId('referrers-notice')).toContainText(t('referrers.savedSandbox', { name }));
    await expect(page.getByTestId('referrer-row')).toHaveCount(0);
    await checkScreenInBoth(page, 'referrers-sandbox');
    const live = (await api(emulator.info, emulator.info.keys.pro, 'GET', '/referrers')).json[
      'referrers'
    ] as Referrer[];
    expect(live.some((r) => r.name === name)).toBe(false);
  });
});
