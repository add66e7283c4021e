// A lost answer at the front desk: the app reaches the emulator through the lost-answer proxy,
// which lets a share e-mail, a new webhook or a new support request reach the service and then cuts
// the connection. The window must not say "cannot reach the service, try again": it says it may
// have been done, looks once, and says what it found — and the service holds exactly one e-mail,
// one webhook, one ticket. The flow runs in Spanish; each screen is checked in Spanish and in
// English.
import { api } from '../support/emulator/emulator';
import { seedExam } from '../support/e2e/exam-seeds';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreenInBoth, onboard, texts, type Lang } from '../support/e2e/ui-steps';

/** The words before `{{var}}` in a text: what can be checked when the rest is a formatted time. */
const upTo = (text: string, variable: string): string => text.slice(0, text.indexOf(`{{${variable}}}`));

const lang: Lang = 'es';
test.describe('in es', () => {
  test.use({ locale: 'es-ES', throughLostAnswerProxy: true, emulatorOptions: { insecureWebhooks: true } });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test(`a share e-mail whose answer is lost is reported as sent, once`, async ({
    page,
    app,
    emulator,
    lostAnswers,
  }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const examId = await seedExam(emulator.info, key, { name: `Panorámica ${lang}`, patient_name: 'ELENA PAZ' });
    const to = `dra.rios.${lang}@clinica.example`;
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#/exams/${examId}/share`);
    await page.getByTestId('share-to').fill(to);
    lostAnswers?.loseNext({ method: 'POST', path: /\/exams\/[^/]+\/share$/ });
    await page.getByTestId('share-send').click();

    const notice = page.getByTestId('maybe-done');
    await expect(notice).toHaveAttribute('data-state', 'found');
    await expect(notice).toContainText(t('errors.maybe_done.title'));
    await expect(notice).toContainText(t('errors.maybe_done.action'));
    await expect(page.getByTestId('maybe-done-finding')).toHaveText(
      `${t('maybeDone.found')} ${t('maybeDone.share.sent', { before: 0, shares: 1 })}`,
    );
    await expect(page.getByText(t('errors.network_error.title'))).toHaveCount(0);
    expect(lostAnswers?.lost).toHaveLength(1);
    const mail = (await emulator.control<{ mail: { kind: string }[] }>('GET', `/mail?to=${encodeURIComponent(to)}`))
      .mail;
    expect(mail.filter((m) => m.kind === 'exam_share')).toHaveLength(1);
    await checkScreenInBoth(page, 'lost-answer-share');
  });

  test(`a webhook whose answer is lost is found in the list, once`, async ({ page, app, emulator, lostAnswers }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const url = `http://127.0.0.1:9/scanbridge-hook-${lang}`;
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.getByRole('link', { name: t('webhooks.nav') }).click();
    await expect(page.getByTestId('webhooks-empty')).toBeVisible();
    await page.getByTestId('webhook-new').click();
    await page.getByTestId('webhook-url').fill(url);
    await page.getByTestId('webhook-description').fill('Software de la clínica');
    lostAnswers?.loseNext({ method: 'POST', path: /\/webhooks$/ });
    await page.getByTestId('webhook-create').click();

    const notice = page.getByTestId('maybe-done');
    await expect(notice).toHaveAttribute('data-state', 'found');
    await expect(page.getByTestId('maybe-done-finding')).toHaveText(
      `${t('maybeDone.found')} ${t('maybeDone.webhook_create.found', { count: 1 })}`,
    );
    await expect(page.getByText(t('errors.network_error.title'))).toHaveCount(0);
    // The list now shows the subscription the service holds.
    await expect(page.getByTestId('webhook')).toHaveCount(1);
    await expect(page.getByTestId('webhook-shown-url')).toHaveText(url);
    const hooks = (await api(emulator.info, key, 'GET', '/webhooks')).json['webhooks'] as { url: string }[];
    expect(hooks.filter((w) => w.url === url)).toHaveLength(1);
    await checkScreenInBoth(page, 'lost-answer-webhook');
  });

  test(`a support request whose answer is lost is found by its subject, once`, async ({
    page,
    app,
    emulator,
    lostAnswers,
  }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const subject = lang === 'es' ? 'El visor no abre el CBCT de Paz' : 'The viewer does not open the CBCT of Paz';
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.getByRole('link', { name: t('support.nav') }).click();
    await page.getByTestId('ticket-new').click();
    await page.getByTestId('ticket-subject').fill(subject);
    await page
      .getByTestId('ticket-message')
      .fill(lang === 'es' ? 'Queda en blanco al abrirlo.' : 'It stays blank when opened.');
    lostAnswers?.loseNext({ method: 'POST', path: /\/support\/tickets$/ });
    await page.getByTestId('ticket-send').click();

    const notice = page.getByTestId('maybe-done');
    await expect(notice).toHaveAttribute('data-state', 'found');
    await expect(page.getByTestId('maybe-done-finding')).toContainText(
      `${t('maybeDone.found')} ${upTo(t('maybeDone.ticket_create.found', { count: 1 }), 'at')}`,
    );
    await expect(page.getByText(t('errors.network_error.title'))).toHaveCount(0);
    // The list now shows the request the service holds.
    await expect(page.getByTestId('ticket-row').filter({ hasText: subject })).toHaveCount(1);
    const tickets = (await api(emulator.info, key, 'GET', '/support/tickets')).json['tickets'] as {
      subject: string;
    }[];
    expect(tickets.filter((x) => x.subject === subject)).toHaveLength(1);
    await checkScreenInBoth(page, 'lost-answer-ticket');
  });
});
