// The exam workspace's contract methods on the agent, against a real emulator: what reaches the
// window, what is refused before any API call, and what each call costs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodArgs, MethodName, MethodResult } from '@preload/contract';
import type { Agent } from '@main/core/agent';
import { startAgent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { makePdf, remainingCalls, seedExam } from '../../support/e2e/exam-seeds';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

let emulator: EmulatorProcess;
let scratch: string;
const agents: Agent[] = [];

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-exams-'));
});
afterAll(async () => {
  for (const a of agents) await a.stop();
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

async function agentWith(key: string, name: string) {
  const agent = await startAgent({
    dataDir: join(scratch, name, 'data'),
    configDir: join(scratch, name, 'config'),
    env: { SCANBRIDGE_API_URL: emulator.info.base_url },
    secretStore: new MemorySecretStore(),
    transport: 'http',
    systemLanguage: 'es',
    notifier: { notify: () => undefined },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  agents.push(agent);
  const call = <M extends MethodName>(m: M, args: MethodArgs<M>): Promise<MethodResult<M>> =>
    agent.host.call(m, args) as Promise<MethodResult<M>>;
  await call('keys:save', { key });
  return call;
}

describe('exam workspace methods', () => {
  it('lists without secrets, details with them, thumbnail bytes once generated, edits only what is given, deletes idempotently', async () => {
    const key = emulator.info.keys.pro;
    const call = await agentWith(key, 'pro');
    const id = await seedExam(emulator.info, key, {
      name: 'Control Rojas',
      patient_name: 'MARÍA ROJAS',
      patient_id: '15.555.555-5',
    });
    const other = await seedExam(emulator.info, key, {
      name: 'Panorámica Rojas',
      patient_name: 'MARÍA ROJAS',
      patient_id: '15.555.555-5',
    });

    const page = await call('exams:list', { limit: 10, offset: 0 });
    expect(page.exams[0]?.id).toBe(other);
    const listed = page.exams.find((e) => e.id === id);
    expect(listed).toMatchObject({
      name: 'Control Rojas',
      status: 'ready',
      share_password: null,
      public_page_pin: null,
    });

    const exam = await call('exams:get', { id });
    expect(exam.share_password).toMatch(/\S/);
    expect(exam.public_page_pin).toMatch(/^\d{6}$/);
    expect((await call('exams:patient-exams', { id })).exams.map((e) => e.id)).toEqual([other]);

    expect(await call('exams:thumbnail', { id })).toEqual({ ready: false });
    await emulator.control('POST', `/exams/${id}/thumbnail`);
    const thumb = await call('exams:thumbnail', { id });
    if (!thumb.ready) throw new Error('thumbnail still not ready');
    const bytes = Buffer.from(thumb.base64, 'base64');
    expect(
      thumb.content_type === 'image/png'
        ? bytes.subarray(1, 4).toString('latin1')
        : bytes.subarray(0, 2).toString('hex'),
    ).toMatch(/^(PNG|ffd8)$/);

    const edited = await call('exams:update', { id, fields: { reason: 'Control de implante' } });
    expect(edited).toMatchObject({ reason: 'Control de implante', name: 'Control Rojas', patient_name: 'MARÍA ROJAS' });
    await expect(call('exams:update', { id, fields: { birth_date: '2999-01-01' } })).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'birth_date' }],
    });
    await expect(call('exams:update', { id, fields: {} })).rejects.toMatchObject({ code: 'invalid_args' });
    await expect(call('exams:get', { id: '../me' })).rejects.toMatchObject({ code: 'invalid_args' });

    expect(await call('exams:delete', { id })).toEqual({ deleted: true, already_deleted: false });
    expect(await call('exams:delete', { id })).toEqual({ deleted: true, already_deleted: true });
    await expect(call('exams:get', { id })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('checks a report before upload, serves its bytes from the presigned URL without another API call, signs and deletes it', async () => {
    const key = emulator.info.keys.clinica;
    const call = await agentWith(key, 'clinica');
    const id = await seedExam(emulator.info, key, { name: 'Informe', patient_name: 'ANA' });

    const before = await remainingCalls(emulator.info, key);
    await expect(
      call('reports:upload', {
        exam_id: id,
        filename: 'informe.pdf',
        base64: Buffer.from('GIF89a not a pdf at all').toString('base64'),
      }),
    ).rejects.toMatchObject({ code: 'report_not_pdf' });
    expect(await remainingCalls(emulator.info, key)).toBe(before - 1);

    expect(await call('reports:get', { exam_id: id })).toEqual({ report: null });
    const pdf = await makePdf('Informe', 2);
    const up = await call('reports:upload', { exam_id: id, filename: 'informe.pdf', base64: pdf.toString('base64') });
    expect(up.report).toMatchObject({ filename: 'informe.pdf', size_bytes: pdf.length, signed: false });
    const got = await call('reports:get', { exam_id: id });
    expect(got.report).toMatchObject({ filename: 'informe.pdf', signed: false, signature: null });
    const r0 = await remainingCalls(emulator.info, key);
    const bytes = Buffer.from((await call('reports:pdf', { exam_id: id })).base64, 'base64');
    expect(bytes.equals(pdf)).toBe(true);
    expect(await remainingCalls(emulator.info, key)).toBe(r0 - 1);

    const sig = await call('reports:sign', { exam_id: id });
    expect(sig.signature_id).toMatch(/^sig_/);
    expect(sig.verification_url).toMatch(/^http/);
    expect((await call('reports:get', { exam_id: id })).report).toMatchObject({
      signed: true,
      signature: { signature_id: sig.signature_id },
    });

    expect(await call('reports:delete', { exam_id: id })).toEqual({ deleted: true });
    expect(await call('reports:get', { exam_id: id })).toEqual({ report: null });
    await expect(call('reports:pdf', { exam_id: id })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('shares for real with a live key, reports "not sent" with a sandbox key, rotates the PIN and revokes the embed', async () => {
    const live = emulator.info.keys.ultra;
    const call = await agentWith(live, 'ultra');
    const id = await seedExam(emulator.info, live, { name: 'Compartir', patient_name: 'LUIS' });
    await api(emulator.info, live, 'POST', '/referrers', { name: 'Dr. Pablo Vera', email: 'pvera@clinica.example' });
    expect(await call('referrers:list', {})).toEqual({
      referrers: [
        {
          id: expect.stringMatching(/^rfr_/),
          name: 'Dr. Pablo Vera',
          email: 'pvera@clinica.example',
          phone: null,
          specialty: null,
        },
      ],
      sandbox: false,
    });

    const sent = await call('share:email', {
      exam_id: id,
      to: ['pvera@clinica.example'],
      cc: ['a@clinica.example', 'b@clinica.example'],
      locale: 'es',
    });
    expect(sent.sent).toBe(true);
    const mail = await emulator.control<{ mail: { to: string[]; cc: string[] }[] }>(
      'GET',
      '/mail?to=pvera%40clinica.example',
    );
    expect(mail.mail.at(-1)).toMatchObject({
      to: ['pvera@clinica.example'],
      cc: ['a@clinica.example', 'b@clinica.example'],
    });
    await expect(call('share:email', { exam_id: id, to: ['not an address'], locale: 'es' })).rejects.toMatchObject({
      code: 'invalid_args',
    });

    const page = await call('share:public-page', { exam_id: id });
    const rotated = await call('share:rotate-pin', { exam_id: id });
    expect(rotated.pin).not.toBe(page.pin);
    expect((await fetch(`${page.public_url}?pin=${page.pin}`)).status).toBe(403);

    expect(await call('share:embed', { exam_id: id })).toMatchObject({ enabled: false, view_count: 0 });
    const on = await call('share:embed-enable', {
      exam_id: id,
      title: 'Caso',
      show_year: false,
      show_study_type: true,
    });
    expect((await fetch(on.embed_url)).status).toBe(200);
    await call('share:embed-revoke', { exam_id: id });
    expect((await fetch(on.embed_url)).status).toBeGreaterThanOrEqual(400);
    const again = await call('share:embed-enable', { exam_id: id, show_year: true, show_study_type: true });
    expect(again.embed_url).not.toBe(on.embed_url);

    const sandboxKey = emulator.info.keys.sandbox;
    const sandbox = await agentWith(sandboxKey, 'sandbox');
    const sid = await seedExam(emulator.info, sandboxKey, { name: 'Prueba' });
    expect(await sandbox('share:email', { exam_id: sid, to: ['doctor@clinica.example'], locale: 'en' })).toEqual({
      sent: false,
      reason: 'test_mode_no_send',
      email_id: null,
    });
    expect(await sandbox('referrers:list', {})).toEqual({ referrers: [], sandbox: true });
  });
});
