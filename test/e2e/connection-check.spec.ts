// Settings → Network and "Check the connection" on a hostile network: `scanbridge serve` reaches the
// emulator over HTTPS (its own CA, trusted through NODE_EXTRA_CA_CERTS) through Debian's tinyproxy
// with a login; once the key is in, the same proxy is typed into Settings → Network, the CA file
// into the extra certificate authority field (a file without a certificate refused first), and the check
// then goes through it as the Settings proxy (which wins over HTTPS_PROXY). The network steps, TLS and the key pass; storage, told by the emulator
// to fail the next upload, refuses the test bytes: passing steps and a failing one, in Spanish and English.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:https';
import { EmulatorProcess } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { ServeProcess } from '../support/e2e/serve-process';
import { checkScreen, type Lang, screenshot, texts } from '../support/e2e/ui-steps';
import { startTinyproxy, type Tinyproxy } from '../support/network/tinyproxy';

let emulator: EmulatorProcess;
let proxy: Tinyproxy;

/** Makes storage answer the next PUT with a 500 (the emulator's control API, over its HTTPS). */
function failNextUpload(): Promise<void> {
  const body = JSON.stringify({ target: 'storage', mode: 'error500', count: 1 });
  return new Promise((resolve, reject) => {
    const req = request(
      `${emulator.info.control_url}/faults`,
      {
        method: 'POST',
        ca: readFileSync(emulator.info.ca_file ?? '', 'utf8'),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => ((res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`faults: ${res.statusCode}`))));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

test.beforeAll(async () => {
  [emulator, proxy] = await Promise.all([EmulatorProcess.start({ tls: true }), startTinyproxy()]);
});

test.afterAll(async () => {
  await Promise.all([emulator.dispose(), proxy.stop()]);
});

for (const lang of ['en', 'es'] as Lang[]) {
  test(`the connection check shows each step, the proxy and the certificate's issuer (${lang})`, async ({ page }) => {
    const t = texts(lang);
    const app = await ServeProcess.start({
      apiUrl: emulator.info.base_url,
      keychain: 'none',
      lang: lang === 'es' ? 'es_ES.UTF-8' : 'en_US.UTF-8',
      // Node's own variable: SCANBRIDGE_CA_FILE would take the place of the file chosen in Settings.
      env: { HTTPS_PROXY: proxy.url, NO_PROXY: '', NODE_EXTRA_CA_CERTS: emulator.info.ca_file },
    });
    try {
      await page.goto(app.info.url);
      // No keychain service here: the key is kept for the session.
      await page.getByLabel(t('onboarding.keyLabel'), { exact: true }).fill(emulator.info.keys.pro);
      await page.getByRole('button', { name: t('onboarding.save') }).click();
      await page.getByTestId('onboarding-continue').click();
      await expect(page).toHaveURL(/#\/inbox$/);
      // The saved proxy reaches the window only after staff have typed (a slow answer): what they
      // typed stays in the fields and is what gets saved.
      let releaseSavedProxy = (): void => undefined;
      const savedProxyHeld = new Promise<void>((resolve) => (releaseSavedProxy = resolve));
      await page.route(/\/rpc\/network%3Aproxy$/, async (route) => {
        await savedProxyHeld;
        await route.continue().catch(() => undefined);
      });
      // The same for the saved CA file, held until a path is typed below.
      let releaseSavedCa = (): void => undefined;
      const savedCaHeld = new Promise<void>((resolve) => (releaseSavedCa = resolve));
      await page.route(/\/rpc\/network%3Aca-file$/, async (route) => {
        await savedCaHeld;
        await route.continue().catch(() => undefined);
      });
      await page.getByRole('link', { name: t('nav.settings') }).click();
      const address = `http://127.0.0.1:${proxy.port}`;
      const network = page.getByRole('region', { name: t('network.title') });
      await network.getByLabel(t('network.address'), { exact: true }).fill(address);
      await network.getByLabel(t('network.user'), { exact: true }).fill('clinica');
      await network.getByLabel(t('network.password'), { exact: true }).fill('Secreto-123');
      await expect(network.getByTestId('proxy-status')).toHaveCount(0);
      releaseSavedProxy();
      await expect(network.getByTestId('proxy-status')).toHaveText(t('network.statusNone'));
      await expect(network.getByLabel(t('network.address'), { exact: true })).toHaveValue(address);
      await expect(network.getByLabel(t('network.user'), { exact: true })).toHaveValue('clinica');
      await network.getByLabel(t('network.password'), { exact: true }).press('Enter');
      await expect(network.getByTestId('proxy-done')).toHaveText(t('network.saved'));
      // No keychain service here: the password is kept for the session, never shown back.
      await expect(network.getByTestId('proxy-status')).toHaveText(
        t('network.statusLoginSession', { url: address, user: 'clinica' }),
      );
      await expect(network.getByLabel(t('network.password'), { exact: true })).toHaveValue('');
      await expect(network.getByLabel(t('network.password'), { exact: true })).toHaveAttribute(
        'placeholder',
        t('network.passwordSaved'),
      );
      await network.scrollIntoViewIfNeeded();
      await network.getByRole('heading', { name: t('network.title') }).scrollIntoViewIfNeeded();
      await page.mouse.move(1279, 799);
      await screenshot(page, `settings-network-${lang}`);
      expect(readFileSync(join(app.configDir, 'settings.json'), 'utf8')).not.toContain('Secreto');

      // The extra CA file: one without a certificate is refused in words, the emulator's is saved.
      const ca = page.getByRole('region', { name: t('network.caTitle') });
      const caPath = ca.getByLabel(t('network.caPath'), { exact: true });
      await caPath.fill(join(app.configDir, 'settings.json'));
      await expect(ca.getByTestId('ca-status')).toHaveCount(0);
      releaseSavedCa();
      await expect(ca.getByTestId('ca-status')).toHaveText(t('network.caStatusNone'));
      await expect(caPath).toHaveValue(join(app.configDir, 'settings.json'));
      await caPath.press('Enter');
      const refusal = ca.getByRole('alert');
      await expect(refusal).toContainText(t('errors.ca_file_no_certificate.title'));
      await expect(refusal).toContainText(t('errors.ca_file_no_certificate.action'));
      await ca.evaluate((el) => el.scrollIntoView({ block: 'end' }));
      await page.mouse.move(1279, 799);
      await screenshot(page, `settings-ca-file-refused-${lang}`);
      await caPath.fill(emulator.info.ca_file ?? '');
      await caPath.press('Enter');
      await expect(ca.getByTestId('ca-done')).toHaveText(t('network.caSaved'));
      await expect(ca.getByTestId('ca-status')).toHaveText(
        t('network.caStatusOk_one', { path: emulator.info.ca_file ?? '', count: 1 }),
      );
      await expect(ca.getByText(t('errors.ca_file_no_certificate.title'))).toHaveCount(0);
      expect(JSON.parse(readFileSync(join(app.configDir, 'settings.json'), 'utf8'))).toMatchObject({
        network: { ca_file: emulator.info.ca_file },
      });
      await ca.evaluate((el) => el.scrollIntoView({ block: 'end' }));
      await page.mouse.move(1279, 799);
      await checkScreen(page, `settings-ca-file-${lang}`);
      await failNextUpload();
      const section = page.getByRole('region', { name: t('netcheck.title') });
      await section.getByRole('button', { name: t('netcheck.run') }).click();
      const verdict = section.getByTestId('check-verdict');
      await expect(verdict).toBeVisible({ timeout: 30_000 });
      await expect(verdict).toContainText(t('netcheck.failedAt', { step: t('netcheck.step.storage') }));
      for (const step of ['dns', 'tcp', 'proxy', 'tls', 'api_key'])
        await expect(section.getByTestId(`check-step-${step}`)).toHaveAttribute('data-status', 'ok');
      await expect(section.getByTestId('check-step-storage')).toHaveAttribute('data-status', 'failed');
      await expect(section.getByTestId('check-step-upload_speed')).toHaveAttribute('data-status', 'skipped');
      await expect(section.getByTestId('check-step-proxy')).toContainText(
        t('netcheck.seen.proxy', { proxy: address, source: t('netcheck.source.settings') }),
      );
      await expect(section.getByTestId('check-step-tls')).toContainText('ScanBridge Emulator Test CA');
      await expect(section.getByTestId('check-step-storage')).toContainText(
        t('netcheck.problem.storage_refused', { host: new URL(emulator.info.base_url).host }),
      );
      expect(proxy.connects().length).toBeGreaterThan(0);
      await section.scrollIntoViewIfNeeded();
      await section.getByRole('heading', { name: t('netcheck.title') }).scrollIntoViewIfNeeded();
      await checkScreen(page, `connection-check-${lang}`);
    } finally {
      await app.stop();
      await app.dispose();
    }
  });
}
