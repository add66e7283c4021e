import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import {
  activityOf,
  createExam,
  filesBody,
  getPage,
  readyExam,
  type Json,
} from '../../support/emulator/emulator-exams';

type Mail = {
  kind: string;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  attachments: { filename: string; size: number; content_type: string }[];
  exam_id: string | null;
  id: string;
};

describe('emulator: share by e-mail, access PIN and public page, embed, viewer pages', () => {
  let emu: EmulatorProcess;
  let pro: string;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    pro = emu.info.keys.pro;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  const call = (method: string, path: string, body?: unknown, key = pro) => api(emu.info, key, method, path, body);
  const mailTo = async (addr: string) =>
    (await emu.control<{ mail: Mail[] }>('GET', `/mail?to=${encodeURIComponent(addr)}`)).mail;
  const origin = () => new URL(emu.info.base_url).origin;

  it('CBCT share: mail with the viewer link, {sent, email_id, to, cc}, exam.shared, shares counter, notification', async () => {
    const e = await readyExam(emu.info, pro, filesBody('CBCT para compartir', [{ name: 'a.dcm', size: 10 }]));
    const r = await call('POST', `/exams/${e.id}/share`, {
      to: 'dr.rojas@example.cl',
      cc: ['asistente@example.cl'],
      message: 'Adjunto el CBCT',
      locale: 'es',
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ sent: true, to: ['dr.rojas@example.cl'], cc: ['asistente@example.cl'] });
    const emailId = r.json['email_id'] as string;
    const [mail] = await mailTo('dr.rojas@example.cl');
    expect(mail).toMatchObject({
      id: emailId,
      kind: 'exam_share',
      exam_id: e.id,
      cc: ['asistente@example.cl'],
      attachments: [],
    });
    expect(mail?.body).toContain(e['viewer_url'] as string);
    expect(mail?.body).toContain('Adjunto el CBCT');
    const [event] = await activityOf(emu.info, pro, 'exam.shared', e.id);
    expect(event?.data).toEqual({
      exam_id: e.id,
      to: ['dr.rojas@example.cl'],
      cc: ['asistente@example.cl'],
      email_id: emailId,
    });
    expect((await call('GET', `/exams/${e.id}`)).json['counters']).toMatchObject({ shares: 1 });
    const notes = (await call('GET', '/notifications?limit=100')).json['notifications'] as Json[];
    expect(notes.some((n) => n['exam_id'] === e.id && n['type'] === 'exam_shared')).toBe(true);
  });

  it('radiograph share: the images are attached (filename, size, content_type)', async () => {
    const files = [
      { name: 'rx/panoramica.dcm', size: 30 },
      { name: 'rx/foto.jpg', size: 20 },
    ];
    const e = await readyExam(emu.info, pro, filesBody('Panorámica', files, { exam_type: 'radiografia' }));
    const r = await call('POST', `/exams/${e.id}/share`, { to: ['rx@example.cl', 'rx2@example.cl'], locale: 'en' });
    expect(r.status).toBe(200);
    const [mail] = await mailTo('rx2@example.cl');
    expect(mail?.attachments).toEqual([
      { filename: 'panoramica.dcm', size: 30, content_type: 'application/dicom' },
      { filename: 'foto.jpg', size: 20, content_type: 'image/jpeg' },
    ]);
    expect(mail?.body).not.toContain(e['viewer_url'] as string);
  });

  it('share refuses an uploading exam (409) and invalid bodies (400)', async () => {
    const up = await createExam(emu.info, pro, filesBody('Subiendo'));
    const r = await call('POST', `/exams/${up.id}/share`, { to: 'a@example.cl' });
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe('conflict');
    const e = await readyExam(emu.info, pro, filesBody('Listo', [{ name: 'a', size: 1 }]));
    const eleven = Array.from({ length: 11 }, (_, i) => `p${i}@example.cl`);
    for (const body of [
      {},
      { to: 'no-es-correo' },
      { to: [] },
      { to: eleven },
      { to: 'a@example.cl', cc: 'x' },
      { to: 'a@example.cl', message: 'm'.repeat(2001) },
      { to: 'a@example.cl', locale: 'fr' },
      { to: 'a@example.cl', bcc: 'b@example.cl' },
    ]) {
      const bad = await call('POST', `/exams/${e.id}/share`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json.error?.code).toBe('validation_error');
    }
    expect((await call('POST', `/exams/${e.id}/share`, { to: 'a@example.cl' }, emu.info.keys.readonly)).status).toBe(
      403,
    );
  });

  it('sandbox share: sent=false, reason test_mode_no_send, no mail, no event', async () => {
    const sb = emu.info.keys.sandbox;
    const e = await readyExam(emu.info, sb, filesBody('Prueba', [{ name: 'a', size: 1 }]));
    const r = await call('POST', `/exams/${e.id}/share`, { to: 'sandbox-dest@example.cl' }, sb);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ sent: false, reason: 'test_mode_no_send' });
    expect(await mailTo('sandbox-dest@example.cl')).toEqual([]);
    expect(await activityOf(emu.info, pro, 'exam.shared', e.id)).toEqual([]);
    expect((await call('GET', `/exams/${e.id}`, undefined, sb)).json['counters']).toMatchObject({ shares: 0 });
  });

  it('access PIN: 6 digits; the public page shows the exam for it; rotating invalidates the old PIN at once', async () => {
    const e = await createExam(
      emu.info,
      pro,
      filesBody('Examen con PIN', undefined, { patient_name: 'Carla <b>Díaz</b>' }),
    );
    const g = await call('GET', `/exams/${e.id}/access-pin`);
    expect(g.status).toBe(200);
    expect(g.json).toEqual({
      pin: e['public_page_pin'],
      clinic_slug: 'radiologica-nunoa',
      public_url: `${origin()}/p/radiologica-nunoa`,
    });
    const oldPin = g.json['pin'] as string;
    expect(oldPin).toMatch(/^\d{6}$/);
    const page = await getPage(`${g.json['public_url'] as string}?pin=${oldPin}`);
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.text).toContain('Examen con PIN');
    expect(page.text).toContain('Carla &#60;b&#62;Díaz&#60;/b&#62;');
    expect(page.text).not.toContain('<b>Díaz');

    const rot = await call('POST', `/exams/${e.id}/access-pin`);
    expect(rot.status).toBe(200);
    const newPin = rot.json['pin'] as string;
    expect(newPin).toMatch(/^\d{6}$/);
    expect(newPin).not.toBe(oldPin);
    expect(Number.isNaN(Date.parse(rot.json['rotated_at'] as string))).toBe(false);
    expect((await getPage(`${origin()}/p/radiologica-nunoa?pin=${oldPin}`)).status).toBe(403);
    expect((await getPage(`${origin()}/p/radiologica-nunoa?pin=${newPin}`)).status).toBe(200);
    expect((await call('GET', `/exams/${e.id}`)).json['public_page_pin']).toBe(newPin);
    expect(await activityOf(emu.info, pro, 'exam.access_pin_rotated', e.id)).toHaveLength(1);
    expect((await call('POST', `/exams/${e.id}/access-pin`, { pin: '123456' })).status).toBe(400);
    expect((await call('GET', `/exams/${e.id}/access-pin`, undefined, emu.info.keys.readonly)).status).toBe(200);
    expect((await call('POST', `/exams/${e.id}/access-pin`, undefined, emu.info.keys.readonly)).status).toBe(403);
  });

  it('public page: no PIN → form; wrong or foreign PIN → 403 page; unknown clinic → 404', async () => {
    const form = await getPage(`${origin()}/p/radiologica-nunoa`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form');
    const other = await createExam(emu.info, emu.info.keys.clinica, filesBody('De otra clínica'));
    const foreign = await getPage(`${origin()}/p/radiologica-nunoa?pin=${other['public_page_pin'] as string}`);
    expect(foreign.status).toBe(403);
    expect(foreign.type).toContain('text/html');
    expect((await getPage(`${origin()}/p/radiologica-nunoa?pin=abc<script>`)).status).toBe(403);
    expect((await getPage(`${origin()}/p/no-such-clinic?pin=123456`)).status).toBe(404);
  });

  it('embed: enable → page counts views; enable again keeps the token; revoke stops the URL; re-enable → fresh token', async () => {
    const e = await readyExam(emu.info, pro, filesBody('Embebido', [{ name: 'a', size: 1 }]));
    expect((await call('GET', `/exams/${e.id}/embed`)).json).toEqual({
      enabled: false,
      token: null,
      snippet: null,
      view_count: 0,
    });
    const on = await call('POST', `/exams/${e.id}/embed`, {
      title: 'Mi <visor>',
      show_year: false,
      show_study_type: true,
    });
    expect(on.status).toBe(200);
    const token = on.json['token'] as string;
    expect(on.json).toMatchObject({ enabled: true, embed_url: `${origin()}/embed/${token}` });
    expect(on.json['iframe_snippet']).toContain(`src="${origin()}/embed/${token}"`);
    const view = await getPage(on.json['embed_url'] as string);
    expect(view.status).toBe(200);
    expect(view.text).toContain('Mi &#60;visor&#62;');
    await getPage(on.json['embed_url'] as string);
    const state = await call('GET', `/exams/${e.id}/embed`);
    expect(state.json).toMatchObject({ enabled: true, token, view_count: 2 });
    expect(state.json['snippet']).toContain(token);
    expect((await call('POST', `/exams/${e.id}/embed`)).json['token']).toBe(token);

    const off = await call('DELETE', `/exams/${e.id}/embed`);
    expect(off.json).toEqual({ enabled: false, revoked: true });
    expect((await getPage(`${origin()}/embed/${token}`)).status).toBe(404);
    expect((await call('GET', `/exams/${e.id}/embed`)).json).toMatchObject({
      enabled: false,
      token: null,
      snippet: null,
    });
    const again = await call('POST', `/exams/${e.id}/embed`);
    expect(again.json['token']).not.toBe(token);
    expect((await getPage(`${origin()}/embed/${token}`)).status).toBe(404);
    expect((await getPage(again.json['embed_url'] as string)).status).toBe(200);
    expect(await activityOf(emu.info, pro, 'exam.embed_revoked', e.id)).toHaveLength(1);
    expect((await activityOf(emu.info, pro, 'exam.embed_enabled', e.id)).length).toBeGreaterThanOrEqual(2);
    expect((await call('POST', `/exams/${e.id}/embed`, { colour: 'red' })).status).toBe(400);
    expect((await call('POST', `/exams/${e.id}/embed`, undefined, emu.info.keys.readonly)).status).toBe(403);
    expect((await call('GET', `/exams/${e.id}/embed`, undefined, emu.info.keys.readonly)).status).toBe(200);
  });

  it('viewer pages /viewer/{token} and /s/{token}: escaped HTML, views counted; unknown or deleted → 404', async () => {
    const e = await readyExam(
      emu.info,
      pro,
      filesBody('<script>alert(1)</script>', [{ name: 'a', size: 1 }], { patient_name: '"Ana" & <Luis>' }),
    );
    for (const url of [e['viewer_url'] as string, e['share_url'] as string]) {
      const p = await getPage(url);
      expect(p.status).toBe(200);
      expect(p.type).toContain('text/html');
      expect(p.text).not.toContain('<script>');
      expect(p.text).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
      expect(p.text).toContain('&#34;Ana&#34; &#38; &#60;Luis&#62;');
    }
    expect((await call('GET', `/exams/${e.id}`)).json['counters']).toMatchObject({ views: 2 });
    expect((await getPage(`${origin()}/viewer/nope`)).status).toBe(404);
    await call('DELETE', `/exams/${e.id}`);
    expect((await getPage(e['viewer_url'] as string)).status).toBe(404);
    expect((await getPage(e['share_url'] as string)).status).toBe(404);
  });
});
