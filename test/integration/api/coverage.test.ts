import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '@main/core/api/client';
import { ApiError } from '@main/core/api/http/api-errors';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { clientFor, type Recorded } from '../../support/harness/api-clients';

type Call = (c: ApiClient) => Promise<unknown>;

// Every endpoint of API-v1.md §4, written out from the spec, with the client function that
// serves it. GET /implants is one endpoint read four ways.
const ENDPOINTS: [method: string, path: string, fn: string, call: Call][] = [
  // §4.1
  ['GET', '/me', 'account.me', (c) => c.account.me()],
  // §4.2
  ['POST', '/exams', 'exams.create', (c) => c.exams.create({ name: 'n', files: [{ name: 'a', size: 1 }] })],
  ['GET', '/exams', 'exams.list', (c) => c.exams.list({ limit: 5 })],
  [
    'GET',
    '/exams',
    'exams.iterate',
    async (c) => {
      for await (const _ of c.exams.iterate({ pageSize: 5 })) break;
    },
  ],
  ['GET', '/exams/{id}', 'exams.get', (c) => c.exams.get('exm_cov')],
  ['POST', '/exams/{id}/confirm', 'exams.confirm', (c) => c.exams.confirm('exm_cov')],
  ['POST', '/exams/{id}/process-zip', 'exams.processZip', (c) => c.exams.processZip('exm_cov')],
  ['DELETE', '/exams/{id}', 'exams.remove', (c) => c.exams.remove('exm_cov')],
  ['PATCH', '/exams/{id}', 'exams.update', (c) => c.exams.update('exm_cov', { name: 'x' })],
  ['POST', '/exams/{id}/share', 'exams.share', (c) => c.exams.share('exm_cov', { to: 'a@b.cl' })],
  [
    'POST',
    '/exams/{id}/extras',
    'exams.createExtra',
    (c) => c.exams.createExtra('exm_cov', { label: 'l', files: [{ name: 'a', size: 1 }] }),
  ],
  ['POST', '/exams/{id}/extras/{index}/confirm', 'exams.confirmExtra', (c) => c.exams.confirmExtra('exm_cov', 1)],
  ['GET', '/exams/{id}/access-pin', 'exams.getAccessPin', (c) => c.exams.getAccessPin('exm_cov')],
  ['POST', '/exams/{id}/access-pin', 'exams.rotateAccessPin', (c) => c.exams.rotateAccessPin('exm_cov')],
  ['GET', '/exams/{id}/embed', 'exams.getEmbed', (c) => c.exams.getEmbed('exm_cov')],
  ['POST', '/exams/{id}/embed', 'exams.enableEmbed', (c) => c.exams.enableEmbed('exm_cov')],
  ['DELETE', '/exams/{id}/embed', 'exams.revokeEmbed', (c) => c.exams.revokeEmbed('exm_cov')],
  ['GET', '/exams/{id}/thumbnail', 'exams.thumbnail', (c) => c.exams.thumbnail('exm_cov')],
  ['GET', '/exams/{id}/patient-exams', 'exams.patientExams', (c) => c.exams.patientExams('exm_cov')],
  // §4.3
  ['GET', '/exams/{id}/consent', 'consent.get', (c) => c.consent.get('exm_cov')],
  ['POST', '/exams/{id}/consent', 'consent.init', (c) => c.consent.init('exm_cov')],
  [
    'POST',
    '/exams/{id}/consent/sign-inperson',
    'consent.signInPerson',
    (c) =>
      c.consent.signInPerson('exm_cov', { signer_name: 'a', signer_rut: '1-9', signature_image: 'x', accepted: true }),
  ],
  ['POST', '/exams/{id}/consent/email', 'consent.sendEmail', (c) => c.consent.sendEmail('exm_cov', { to: 'a@b.cl' })],
  ['GET', '/exams/{id}/consent/pdf', 'consent.pdf', (c) => c.consent.pdf('exm_cov', 'blank')],
  // §4.4
  ['POST', '/exams/{id}/report', 'reports.upload', (c) => c.reports.upload('exm_cov', { pdf_base64: 'JVBERi0=' })],
  ['GET', '/exams/{id}/report', 'reports.get', (c) => c.reports.get('exm_cov')],
  ['DELETE', '/exams/{id}/report', 'reports.remove', (c) => c.reports.remove('exm_cov')],
  ['POST', '/exams/{id}/report/sign', 'reports.sign', (c) => c.reports.sign('exm_cov')],
  // §4.5
  [
    'POST',
    '/webhooks',
    'webhooks.create',
    (c) => c.webhooks.create({ url: 'https://example.org/h', events: ['test.ping'] }),
  ],
  ['GET', '/webhooks', 'webhooks.list', (c) => c.webhooks.list()],
  ['GET', '/webhooks/{id}', 'webhooks.get', (c) => c.webhooks.get('wh_cov')],
  ['PATCH', '/webhooks/{id}', 'webhooks.update', (c) => c.webhooks.update('wh_cov', { enabled: true })],
  ['DELETE', '/webhooks/{id}', 'webhooks.remove', (c) => c.webhooks.remove('wh_cov')],
  ['POST', '/webhooks/{id}/test', 'webhooks.test', (c) => c.webhooks.test('wh_cov')],
  ['GET', '/webhooks/{id}/deliveries', 'webhooks.deliveries', (c) => c.webhooks.deliveries('wh_cov')],
  // §4.6
  ['GET', '/referrers', 'referrers.list', (c) => c.referrers.list()],
  ['POST', '/referrers', 'referrers.create', (c) => c.referrers.create({ name: 'n' })],
  ['GET', '/referrers/{id}', 'referrers.get', (c) => c.referrers.get('rfr_cov')],
  ['PATCH', '/referrers/{id}', 'referrers.update', (c) => c.referrers.update('rfr_cov', { name: 'm' })],
  ['DELETE', '/referrers/{id}', 'referrers.remove', (c) => c.referrers.remove('rfr_cov')],
  // §4.7
  ['GET', '/templates', 'templates.list', (c) => c.templates.list()],
  ['POST', '/templates', 'templates.create', (c) => c.templates.create({ name: 'n', pages: [] })],
  ['GET', '/templates/{id}', 'templates.get', (c) => c.templates.get('tpl_cov')],
  ['PATCH', '/templates/{id}', 'templates.update', (c) => c.templates.update('tpl_cov', { name: 'm' })],
  ['DELETE', '/templates/{id}', 'templates.remove', (c) => c.templates.remove('tpl_cov')],
  // §4.8
  ['GET', '/implants', 'implants.brands', (c) => c.implants.brands()],
  ['GET', '/implants', 'implants.byBrand', (c) => c.implants.byBrand('Straumann')],
  ['GET', '/implants', 'implants.search', (c) => c.implants.search('bone level')],
  ['GET', '/implants', 'implants.bySize', (c) => c.implants.bySize({ length: 10, diameter: 4.1 })],
  // §4.9
  ['GET', '/support/tickets', 'support.list', (c) => c.support.list()],
  ['POST', '/support/tickets', 'support.create', (c) => c.support.create({ subject: 's', message: 'm' })],
  ['GET', '/support/tickets/{id}', 'support.get', (c) => c.support.get('tkt_cov')],
  // §4.10
  ['GET', '/activity', 'activity.list', (c) => c.activity.list()],
  [
    'GET',
    '/activity',
    'activity.iterate',
    async (c) => {
      for await (const _ of c.activity.iterate()) break;
    },
  ],
  ['GET', '/notifications', 'notifications.list', (c) => c.notifications.list()],
  ['POST', '/notifications/{id}/mark-read', 'notifications.markRead', (c) => c.notifications.markRead('ntf_cov')],
  ['POST', '/notifications/mark-all-read', 'notifications.markAllRead', (c) => c.notifications.markAllRead()],
];

const SPEC_ENDPOINT_COUNT = 52;

function lookup(client: ApiClient, fn: string): unknown {
  const [group, name] = fn.split('.') as [string, string];
  const g = (client as unknown as Record<string, Record<string, unknown> | undefined>)[group];
  return g?.[name];
}

const template = (path: string): RegExp => new RegExp(`^${path.replace(/\{[a-z]+\}/g, '[^/]+')}$`);

describe('client: one function for every endpoint of API-v1.md §4', () => {
  let emu: EmulatorProcess;
  let rec: Recorded;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    rec = clientFor(emu, 'pro', { retry: { maxAttempts: 1 } });
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('the table lists all 52 endpoints of §4', () => {
    expect(new Set(ENDPOINTS.map(([m, p]) => `${m} ${p}`)).size).toBe(SPEC_ENDPOINT_COUNT);
  });

  it('has a function for each endpoint', () => {
    const missing = ENDPOINTS.filter(([, , fn]) => typeof lookup(rec.client, fn) !== 'function').map(
      ([m, p, fn]) => `${m} ${p} → ${fn}`,
    );
    expect(missing).toEqual([]);
  });

  it('has no endpoint function that the table does not account for', () => {
    const listed = new Set(ENDPOINTS.map(([, , fn]) => fn));
    const groups = [
      'account',
      'exams',
      'consent',
      'reports',
      'webhooks',
      'referrers',
      'templates',
      'implants',
      'support',
      'activity',
      'notifications',
    ] as const;
    const extra: string[] = [];
    for (const g of groups) {
      for (const [name, v] of Object.entries(rec.client[g]))
        if (typeof v === 'function' && !listed.has(`${g}.${name}`)) extra.push(`${g}.${name}`);
    }
    expect(extra).toEqual([]);
  });

  it.each(ENDPOINTS)('%s %s is served by %s, which sends exactly that request', async (method, path, _fn, call) => {
    const from = rec.events.length;
    // The answer itself does not matter here (fake ids give 404s); the request line does.
    await call(rec.client).catch((e: unknown) => {
      if (!(e instanceof ApiError)) throw e;
    });
    const sent = rec.events.slice(from).filter((e) => e.type === 'attempt');
    expect(sent.length).toBeGreaterThan(0);
    for (const e of sent) {
      if (e.type !== 'attempt') continue;
      expect(e.method).toBe(method);
      expect(`/${e.path}`).toMatch(template(path));
    }
  });

  it('the emulator serves every endpoint of the table', async () => {
    const { api } = await emu.control<{ api: { method: string; path: string }[] }>('GET', '/routes');
    const served = new Set(api.map((r) => `${r.method} ${r.path.replace(/:[a-z_]+/g, '{}')}`));
    const missing = [...new Set(ENDPOINTS.map(([m, p]) => `${m} ${p.replace(/\{[a-z]+\}/g, '{}')}`))].filter(
      (e) => !served.has(e),
    );
    expect(missing).toEqual([]);
  });
});
