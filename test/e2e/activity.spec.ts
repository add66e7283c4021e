// The activity log and the notifications: entries filtered by action, older ones loaded with the
// cursor (in depth in Spanish), and a notification (a support reply) marked read in the bell and on
// the service (in depth in English); every screen is checked in both languages.
import { api, type EmulatorInfo } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { tabTo } from '../support/e2e/keyboard';
import { checkScreenInBoth, onboard, texts } from '../support/e2e/ui-steps';

async function openTicket(info: EmulatorInfo, key: string, subject: string): Promise<string> {
  const res = await api(info, key, 'POST', '/support/tickets', {
    subject,
    message: 'Consulta de prueba',
    category: 'general',
  });
  if (res.status !== 201) throw new Error(`POST /support/tickets → ${res.status}`);
  return String(res.json['id']);
}

test.describe('in es', () => {
  test.use({ locale: 'es-ES', emulatorOptions: {} });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test('the activity log filters by action and loads older entries', async ({ page, app, emulator }) => {
    const t = texts('es');
    const key = emulator.info.keys.pro;
    // 27 requests: more than one page (25) of ticket.created, and other actions around them.
    for (let i = 1; i <= 27; i++) await openTicket(emulator.info, key, `Solicitud ${i}`);
    await api(emulator.info, key, 'POST', '/referrers', { name: 'Dra. Ñúñez' });
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.getByRole('link', { name: t('activity.nav') }).click();
    await expect(page.getByRole('heading', { name: t('activity.title'), level: 2 })).toBeVisible();
    const rows = page.getByTestId('activity-entry');
    // Newest first: the referrer was added last.
    await expect(rows.first()).toHaveAttribute('data-action', 'referrer.created');
    await checkScreenInBoth(page, 'activity');

    await page.getByTestId('activity-filter').click();
    await page.getByRole('option', { name: t('activity.actions.ticket_created') }).click();
    await expect(rows).toHaveCount(25);
    for (const action of await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-action'))))
      expect(action).toBe('ticket.created');
    await page.getByTestId('activity-more').click();
    await expect(rows).toHaveCount(27);
    await expect(page.getByTestId('activity-more')).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await checkScreenInBoth(page, 'activity-filtered');
  });
});

test.describe('in en', () => {
  test.use({ locale: 'en-US', emulatorOptions: {} });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test('a notification is marked read in the bell and on the service', async ({ page, app, emulator }) => {
    const t = texts('en');
    const key = emulator.info.keys.pro;
    const subject = 'Factura';
    const id = await openTicket(emulator.info, key, subject);
    await emulator.control('POST', `/tickets/${id}/replies`, { body: 'Su factura ya está disponible.' });
    await emulator.control('POST', `/tickets/${id}/replies`, { body: 'Segundo aviso.' });
    await page.goto(app.info.url);
    await onboard(page, t, key);

    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAttribute('data-unread', '2');
    await expect(bell).toHaveAccessibleName(t('notifications.bellLabel_other', { count: 2 }));
    await bell.click();
    const panel = page.getByTestId('notification-panel');
    const items = panel.getByTestId('notification');
    await expect(items).toHaveCount(2);
    await checkScreenInBoth(page, 'notifications');

    const first = items.filter({ hasText: 'Segundo aviso.' });
    const ntfId = await first.getAttribute('data-id');
    await first.getByTestId('notification-mark-read').click();
    await expect(first).toHaveAttribute('data-read', 'true');
    await expect(bell).toHaveAttribute('data-unread', '1');
    const after = await api(emulator.info, key, 'GET', '/notifications');
    const list = after.json['notifications'] as { id: string; read: boolean }[];
    expect(list.find((n) => n.id === ntfId)?.read).toBe(true);
    expect(after.json['unread_count']).toBe(1);

    await panel.getByTestId('notifications-mark-all').click();
    await expect(bell).toHaveAttribute('data-unread', '0');
    expect((await api(emulator.info, key, 'GET', '/notifications')).json['unread_count']).toBe(0);
    await checkScreenInBoth(page, 'notifications-read');
  });
});

test('the bell is usable with the keyboard alone', async ({ page, app, emulator }) => {
  const t = texts('en');
  const key = emulator.info.keys.ultra;
  const id = await openTicket(emulator.info, key, 'Teclado');
  await emulator.control('POST', `/tickets/${id}/replies`, { body: 'Respuesta por teclado.' });
  await page.goto(app.info.url);
  await onboard(page, t, key);
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAttribute('data-unread', '1');
  await tabTo(page, bell, { backwards: true });
  await page.keyboard.press('Enter');
  const markOne = page.getByTestId('notification-mark-read');
  await tabTo(page, markOne);
  await page.keyboard.press('Enter');
  await expect(bell).toHaveAttribute('data-unread', '0');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notification-panel')).toBeHidden();
  await expect(bell).toBeFocused();
});
