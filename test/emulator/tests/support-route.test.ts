import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Ticket = {
  id: string;
  subject: string;
  message: string;
  category: string;
  exam_id: string | null;
  status: string;
  created_at: string;
  replies_count: number;
};
type Mail = { kind: string; to: string[]; subject: string; body: string; account_id: string; exam_id: string | null };
type Detail = { field: string; message: string };

describe('emulator: support tickets (§2.12, §4.9, §5.5)', () => {
  let emu: EmulatorProcess;
  const call = (method: string, path: string, body?: unknown, key?: string) =>
    api(emu.info, key ?? emu.info.keys.pro, method, path, body);
  const mail = async (): Promise<Mail[]> => (await emu.control<{ mail: Mail[] }>('GET', '/mail')).mail;
  let proEmail = '';

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    proEmail = (await call('GET', '/me')).json['email'] as string;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('creates a ticket: 201, tkt_ id, status open, category defaults to general, no replies', async () => {
    const r = await call('POST', '/support/tickets', {
      subject: 'El visor no carga',
      message: 'Al abrir el examen la pantalla queda en negro.',
    });
    expect(r.status).toBe(201);
    const t = r.json as unknown as Ticket;
    expect(t.id).toMatch(/^tkt_(?!test_)/);
    expect(t).toMatchObject({
      subject: 'El visor no carga',
      message: 'Al abrir el examen la pantalla queda en negro.',
      category: 'general',
      exam_id: null,
      status: 'open',
      replies_count: 0,
    });
    expect(Date.parse(t.created_at)).not.toBeNaN();
    expect(r.json['test_mode']).toBeUndefined();
  });

  it('live: e-mails the support team and sends a confirmation to the account address', async () => {
    const before = (await mail()).length;
    const t = (
      await call('POST', '/support/tickets', {
        subject: 'Factura duplicada',
        message: 'Nos llegaron dos cobros este mes.',
        category: 'billing',
      })
    ).json as unknown as Ticket;
    const sent = (await mail()).slice(before);
    expect(sent.map((m) => m.kind).sort()).toEqual(['support_confirmation', 'support_ticket']);
    const toSupport = sent.find((m) => m.kind === 'support_ticket') as Mail;
    expect(toSupport.to).toHaveLength(1);
    expect(toSupport.to[0]).toMatch(/^support@/);
    expect(toSupport.subject).toContain(t.id);
    expect(toSupport.body).toContain('Nos llegaron dos cobros este mes.');
    const confirmation = sent.find((m) => m.kind === 'support_confirmation') as Mail;
    expect(confirmation.to).toEqual([proEmail]);
    expect(confirmation.body).toContain(t.id);
  });

  it('accepts every category of the spec and rejects others', async () => {
    for (const category of ['general', 'bug', 'billing', 'feature_request', 'account', 'viewer']) {
      const r = await call('POST', '/support/tickets', {
        subject: `Categoría ${category}`,
        message: 'Prueba',
        category,
      });
      expect(r.status).toBe(201);
      expect(r.json['category']).toBe(category);
    }
    const bad = await call('POST', '/support/tickets', { subject: 'X', message: 'Y', category: 'urgent' });
    expect(bad.status).toBe(400);
    expect((bad.json.error?.['details'] as Detail[])[0]?.field).toBe('category');
  });

  it('requires subject (≤ 200) and message (≤ 10000), refuses unknown fields', async () => {
    const cases: [unknown, string][] = [
      [{ message: 'Sin asunto' }, 'subject'],
      [{ subject: '', message: 'Asunto vacío' }, 'subject'],
      [{ subject: 's'.repeat(201), message: 'Largo' }, 'subject'],
      [{ subject: 'Sin mensaje' }, 'message'],
      [{ subject: 'Mensaje largo', message: 'm'.repeat(10001) }, 'message'],
      [{ subject: 'Tipo', message: 123 }, 'message'],
      [{ subject: 'Extra', message: 'x', priority: 'high' }, 'body'],
    ];
    for (const [body, field] of cases) {
      const r = await call('POST', '/support/tickets', body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
      expect((r.json.error?.['details'] as Detail[]).map((d) => d.field)).toContain(field);
    }
    const limits = await call('POST', '/support/tickets', { subject: 's'.repeat(200), message: 'm'.repeat(10000) });
    expect(limits.status).toBe(201);
  });

  it('exam_id must name an existing exam of the account (400 on field exam_id otherwise)', async () => {
    const exam = await call('POST', '/exams', { name: 'CBCT soporte', files: [{ name: 'a.dcm', size: 10 }] });
    expect(exam.status).toBe(201);
    const examId = exam.json['id'] as string;
    const ok = await call('POST', '/support/tickets', {
      subject: 'Examen con problema',
      message: 'No se ve',
      exam_id: examId,
      category: 'viewer',
    });
    expect(ok.status).toBe(201);
    expect(ok.json['exam_id']).toBe(examId);
    const unknown = await call('POST', '/support/tickets', { subject: 'X', message: 'Y', exam_id: 'exm_nope' });
    expect(unknown.status).toBe(400);
    expect((unknown.json.error?.['details'] as Detail[])[0]?.field).toBe('exam_id');
    const foreign = await call(
      'POST',
      '/support/tickets',
      { subject: 'X', message: 'Y', exam_id: examId },
      emu.info.keys.clinica,
    );
    expect(foreign.status).toBe(400);
    expect((await call('DELETE', `/exams/${examId}`)).status).toBe(200);
    const deleted = await call('POST', '/support/tickets', { subject: 'X', message: 'Y', exam_id: examId });
    expect(deleted.status).toBe(400);
  });

  it('lists the account tickets newest first with limit 1..100 (default 50)', async () => {
    const free = emu.info.keys.free;
    const ids: string[] = [];
    for (let i = 0; i < 55; i++)
      ids.push(
        (await call('POST', '/support/tickets', { subject: `Consulta ${i}`, message: 'Texto' }, free)).json[
          'id'
        ] as string,
      );
    const r = await call('GET', '/support/tickets', undefined, free);
    expect(r.status).toBe(200);
    const tickets = r.json['tickets'] as Ticket[];
    expect(tickets).toHaveLength(50);
    expect(tickets.map((t) => t.id)).toEqual(ids.slice(-50).reverse());
    const three = (await call('GET', '/support/tickets?limit=3', undefined, free)).json['tickets'] as Ticket[];
    expect(three.map((t) => t.subject)).toEqual(['Consulta 54', 'Consulta 53', 'Consulta 52']);
    expect(
      ((await call('GET', '/support/tickets?limit=100', undefined, free)).json['tickets'] as Ticket[]).length,
    ).toBe(55);
    for (const q of ['?limit=0', '?limit=101', '?limit=abc']) {
      const bad = await call('GET', `/support/tickets${q}`, undefined, free);
      expect(bad.status).toBe(400);
      expect((bad.json.error?.['details'] as Detail[])[0]?.field).toBe('limit');
    }
    const pro = (await call('GET', '/support/tickets?limit=100')).json['tickets'] as Ticket[];
    expect(pro.some((t) => ids.includes(t.id))).toBe(false);
  });

  it('an admin reply (control API) answers the ticket: replies in order, status answered, notification, mail', async () => {
    const t = (
      await call('POST', '/support/tickets', { subject: 'Cómo exportar', message: '¿Se puede exportar a DICOM?' })
    ).json as unknown as Ticket;
    const empty = await call('GET', `/support/tickets/${t.id}`);
    expect(empty.json).toEqual({
      ticket: expect.objectContaining({ id: t.id, status: 'open', replies_count: 0 }),
      replies: [],
    });
    await emu.control('POST', `/tickets/${t.id}/replies`, { body: 'Sí, desde el menú Exportar.' });
    await new Promise((r) => setTimeout(r, 3));
    await emu.control('POST', `/tickets/${t.id}/replies`, { body: 'También por la API.' });
    const r = await call('GET', `/support/tickets/${t.id}`);
    expect(r.status).toBe(200);
    const replies = r.json['replies'] as { body: string; created_at: string }[];
    expect(replies.map((x) => x.body)).toEqual(['Sí, desde el menú Exportar.', 'También por la API.']);
    expect(Date.parse(replies[1]?.created_at ?? '')).toBeGreaterThan(Date.parse(replies[0]?.created_at ?? ''));
    expect(r.json['ticket']).toMatchObject({ id: t.id, status: 'answered', replies_count: 2 });
    const notes = (await call('GET', '/notifications')).json['notifications'] as { type: string; body: string }[];
    expect(notes.filter((n) => n.type === 'support_reply').map((n) => n.body)).toEqual(
      expect.arrayContaining(['Sí, desde el menú Exportar.', 'También por la API.']),
    );
    expect((await mail()).filter((m) => m.kind === 'support_reply' && m.subject.includes(t.id))).toHaveLength(2);
  });

  it('the reply control route answers 404 for an unknown ticket and 400 for an empty body', async () => {
    const unknown = await fetch(`${emu.info.control_url}/tickets/tkt_nope/replies`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ body: 'Hola' }),
    });
    expect(unknown.status).toBe(404);
    const t = (await call('POST', '/support/tickets', { subject: 'A', message: 'B' })).json as unknown as Ticket;
    const empty = await fetch(`${emu.info.control_url}/tickets/${t.id}/replies`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ body: '' }),
    });
    expect(empty.status).toBe(400);
  });

  it("GET of an unknown or another account's ticket answers 404", async () => {
    const t = (await call('POST', '/support/tickets', { subject: 'Privado', message: 'Solo mío' }))
      .json as unknown as Ticket;
    expect((await call('GET', '/support/tickets/tkt_nope')).status).toBe(404);
    const other = await call('GET', `/support/tickets/${t.id}`, undefined, emu.info.keys.ultra);
    expect(other.status).toBe(404);
    expect(other.json.error?.code).toBe('not_found');
  });

  it('needs support:read / support:write (readonly key → 403)', async () => {
    const ro = emu.info.keys.readonly;
    expect((await call('GET', '/support/tickets', undefined, ro)).json.error?.['required_scope']).toBe('support:read');
    expect(
      (await call('POST', '/support/tickets', { subject: 'A', message: 'B' }, ro)).json.error?.['required_scope'],
    ).toBe('support:write');
  });

  describe('sandbox key', () => {
    it('create answers a tkt_test_ mock with test_mode true; nothing stored, no e-mail, no activity', async () => {
      const sb = emu.info.keys.sandbox;
      const mailBefore = (await mail()).length;
      const liveBefore = ((await call('GET', '/support/tickets?limit=100')).json['tickets'] as Ticket[]).length;
      const actBefore = (await call('GET', '/activity?action=ticket.created&limit=100')).json['activity'] as unknown[];
      const r = await call(
        'POST',
        '/support/tickets',
        { subject: 'Prueba sandbox', message: 'No enviar', category: 'bug' },
        sb,
      );
      expect(r.status).toBe(201);
      expect(r.json['id']).toMatch(/^tkt_test_/);
      expect(r.json).toMatchObject({
        subject: 'Prueba sandbox',
        category: 'bug',
        status: 'open',
        replies_count: 0,
        test_mode: true,
      });
      expect((await call('POST', '/support/tickets', { subject: '', message: 'x' }, sb)).status).toBe(400);
      expect((await mail()).length).toBe(mailBefore);
      expect(((await call('GET', '/support/tickets?limit=100')).json['tickets'] as Ticket[]).length).toBe(liveBefore);
      expect((await call('GET', '/activity?action=ticket.created&limit=100')).json['activity']).toHaveLength(
        actBefore.length,
      );
      expect((await call('GET', '/support/tickets', undefined, sb)).json).toEqual({ tickets: [] });
      expect((await call('GET', `/support/tickets/${r.json['id'] as string}`, undefined, sb)).status).toBe(404);
    });
  });
});
