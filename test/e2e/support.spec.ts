// Help and support: a request sent with the reviewed diagnostics summary, an admin reply added
// through the emulator's control API shown in order, and what reached the service (the summary, and
// never the key). A test key's request is "test, not sent". The flow runs in Spanish; each screen
// is checked in Spanish and in English.
import { api } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreen, checkScreenInBoth, onboard, texts, type Lang } from '../support/e2e/ui-steps';

const lang: Lang = 'es';
test.describe('in es', () => {
  test.use({ locale: 'es-ES' });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test(`a support request gets the admin's replies in order`, async ({ page, app, emulator }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const subject = `Visor lento ${lang} ${Date.now()}`;
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.getByRole('link', { name: t('support.nav') }).click();
    await expect(page.getByRole('heading', { name: t('support.title'), level: 2 })).toBeVisible();

    await page.getByTestId('ticket-new').click();
    // Sending empty is refused in the window, with the fields named.
    await page.getByTestId('ticket-send').click();
    await expect(page.getByText(t('support.fillIn'))).toBeVisible();
    await page.getByTestId('ticket-subject').fill(subject);
    await page.getByTestId('ticket-category').click();
    await page.getByRole('option', { name: t('support.categories.viewer') }).click();
    await page.getByTestId('ticket-message').fill('El visor tarda mucho en abrir los CBCT de Muñoz.');
    await page.getByTestId('ticket-diagnostics').check();
    const preview = page.getByTestId('diagnostics-preview');
    await expect(preview).toContainText('ScanBridge diagnostics');
    await expect(preview).toContainText('key_in_use: live');
    // The bundle: the connection check, the upload queue and the last log lines, redacted.
    await expect(preview).toContainText('--- Connection check');
    await expect(preview).toContainText('result: ok');
    await expect(preview).toContainText('--- Upload queue ---');
    await expect(preview).toContainText('--- Last log lines');
    // The log lines are the log's own, read back from its file (this server's `serve` lines).
    await expect(preview).toContainText('"cmd":"serve"');
    await expect(preview).not.toContainText(key);
    const previewText = (await preview.locator('code, pre').first().innerText()).replace(/\r/g, '');
    await checkScreenInBoth(page, 'support-new');
    await page.getByTestId('ticket-send').click();

    const detail = page.getByTestId('ticket-detail');
    await expect(detail.getByRole('heading', { name: subject })).toBeVisible();
    await expect(page.getByTestId('ticket-no-replies')).toBeVisible();
    const row = page.getByTestId('ticket-row').filter({ hasText: subject });
    const id = await row.getAttribute('data-id');
    expect(id).toMatch(/^tkt_/);

    await test.step('On the service', async () => {
      // On the service: the category chosen, the summary appended, no key.
      const stored = await api(emulator.info, key, 'GET', `/support/tickets/${id}`);
      const ticket = stored.json['ticket'] as { category: string; message: string };
      expect(ticket.category).toBe('viewer');
      expect(ticket.message).toContain('--- ScanBridge diagnostics ---');
      // Exactly the summary the window showed.
      expect(ticket.message).toContain(previewText.trim());
      expect(ticket.message).not.toContain(key);
    });

    await test.step('Support answers twice', async () => {
      // Support answers twice (control API); the replies show in order after checking.
      await emulator.control('POST', `/tickets/${id}/replies`, { body: 'Primera respuesta: ¿qué navegador usa?' });
      await emulator.control('POST', `/tickets/${id}/replies`, { body: 'Segunda respuesta: ya lo corregimos.' });
      await page.getByTestId('ticket-refresh').click();
      const replies = page.getByTestId('ticket-reply');
      await expect(replies).toHaveCount(2);
      await expect(replies.nth(0)).toContainText('Primera respuesta');
      await expect(replies.nth(1)).toContainText('Segunda respuesta');
      await checkScreenInBoth(page, 'support-ticket');
    });
  });
});

test('with a test key a request is checked but not sent', async ({ page, app, emulator }) => {
  const t = texts('es');
  await page.goto(app.info.url);
  await page.getByTestId('language-switch').selectOption('es');
  await onboard(page, t, emulator.info.keys.sandbox);
  await page.getByRole('link', { name: t('support.nav') }).click();
  await expect(page.getByTestId('support-sandbox')).toBeVisible();
  await page.getByTestId('ticket-new').click();
  await page.getByTestId('ticket-subject').fill('Prueba');
  await page.getByTestId('ticket-message').fill('Solo una prueba.');
  await page.getByTestId('ticket-send').click();
  await expect(page.getByTestId('ticket-test-mode')).toContainText(t('support.testSentTitle'));
  await expect(page.getByTestId('ticket-test-mode')).toContainText('tkt_test_');
  await checkScreen(page, 'support-sandbox-es');
  const list = await api(emulator.info, emulator.info.keys.sandbox, 'GET', '/support/tickets');
  expect(list.json['tickets']).toEqual([]);
});
