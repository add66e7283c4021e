// Integrations (webhooks), against an emulator started with --insecure-webhooks and a receiver on
// 127.0.0.1: a subscription created with its secret shown once, a test message received and listed
// among the deliveries, switched off, an automatically disabled one explained, and deleted after
// confirmation — each step checked on the service. The flow runs in Spanish; each screen is checked
// in Spanish and in English.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreenInBoth, onboard, texts, type Lang } from '../support/e2e/ui-steps';

type Received = { headers: IncomingHttpHeaders; body: string };

async function receiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok, got it');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/scanbridge-hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const lang: Lang = 'es';
test.describe('in es', () => {
  test.use({ locale: 'es-ES', emulatorOptions: { insecureWebhooks: true } });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test(`a webhook is created, pinged, listed, switched off and deleted`, async ({ page, app, emulator }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const rx = await receiver();
    try {
      await page.goto(app.info.url);
      await onboard(page, t, key);
      await page.getByRole('link', { name: t('webhooks.nav') }).click();
      await expect(page.getByTestId('webhooks-empty')).toBeVisible();
      await page.getByTestId('webhook-new').click();

      // A plain-HTTP address elsewhere is refused in the window before anything is sent.
      await page.getByTestId('webhook-url').fill('http://crm.example.com/hook');
      await page.getByTestId('webhook-create').click();
      await expect(page.getByText(t('webhooks.urlProblem.https'))).toBeVisible();
      expect((await api(emulator.info, key, 'GET', '/webhooks')).json['webhooks']).toEqual([]);

      await page.getByTestId('webhook-url').fill(rx.url);
      await page.getByTestId('webhook-description').fill('Software de la clínica');
      await page.getByRole('checkbox', { name: t('webhooks.events.test_ping') }).check();
      await page.getByRole('checkbox', { name: t('webhooks.events.report_signed') }).check();
      await checkScreenInBoth(page, 'webhooks-new');
      await page.getByTestId('webhook-create').click();

      // The secret, once, with the warning.
      const secretPanel = page.getByTestId('webhook-secret-panel');
      await expect(secretPanel).toContainText(t('webhooks.secretWarning'));
      const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      const card = page.getByTestId('webhook');
      await expect(card).toHaveCount(1);
      const id = await card.getAttribute('data-id');
      const stored = await api(emulator.info, key, 'GET', `/webhooks/${id}`);
      expect(stored.json).toMatchObject({ url: rx.url, description: 'Software de la clínica', enabled: true });
      expect((stored.json['events'] as string[]).sort()).toEqual(['exam.confirmed', 'report.signed', 'test.ping']);
      await checkScreenInBoth(page, 'webhooks-secret');
      await page.getByTestId('webhook-secret-done').click();
      await expect(secretPanel).toHaveCount(0);
      await page.reload();
      await expect(card).toBeVisible();
      expect(await page.locator('body').innerText()).not.toContain(secret);

      // A test message reaches the receiver and is listed.
      await card.getByTestId('webhook-ping').click();
      await expect(card.getByTestId('webhook-ping-result')).toContainText(t('webhooks.pingOk'));
      expect(rx.received.some((r) => r.headers['x-service-event'] === 'test.ping')).toBe(true);
      const delivery = card.getByTestId('webhook-delivery');
      await expect(delivery).toHaveCount(1);
      await expect(delivery).toHaveAttribute('data-status', 'succeeded');
      await expect(delivery).toContainText('HTTP 200');
      await checkScreenInBoth(page, 'webhooks-deliveries');

      // Switched off: on the service too.
      await card.getByTestId('webhook-toggle').click({ force: true });
      await expect(card).toHaveAttribute('data-enabled', 'false');
      expect((await api(emulator.info, key, 'GET', `/webhooks/${id}`)).json['enabled']).toBe(false);

      // Deleted after confirming.
      await card.getByTestId('webhook-delete').click();
      await expect(page.getByRole('dialog', { name: t('webhooks.deleteTitle') })).toBeVisible();
      await checkScreenInBoth(page, 'webhooks-delete');
      await page.getByTestId('webhook-delete-confirm').click();
      await expect(page.getByTestId('webhooks-empty')).toBeVisible();
      expect((await api(emulator.info, key, 'GET', `/webhooks/${id}`)).status).toBe(404);
    } finally {
      await rx.close();
    }
  });

  test(`an automatically disabled webhook is explained`, async ({ page, app, emulator }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    // Nothing listens on this port: every delivery fails; 20 in a row switch it off.
    const rx = await receiver();
    const deadUrl = rx.url;
    await rx.close();
    const created = await api(emulator.info, key, 'POST', '/webhooks', {
      url: deadUrl,
      events: ['test.ping'],
      description: 'Receptor apagado',
    });
    const id = String(created.json['id']);
    for (let i = 0; i < 20; i++) await api(emulator.info, key, 'POST', `/webhooks/${id}/test`);
    expect((await api(emulator.info, key, 'GET', `/webhooks/${id}`)).json['enabled']).toBe(false);

    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.getByRole('link', { name: t('webhooks.nav') }).click();
    const card = page.getByTestId('webhook');
    await expect(card.getByTestId('webhook-auto-disabled')).toContainText(t('webhooks.autoDisabledTitle'));
    await card.getByTestId('webhook-show-deliveries').click();
    await expect(card.getByTestId('webhook-delivery').first()).toHaveAttribute('data-status', 'failed');
    await checkScreenInBoth(page, 'webhooks-auto-disabled');
  });
});
