// The consent desk against a real emulator: start, the patient session and its checks, signing in
// person, the SHA-256 verification (and what happens when the downloaded bytes differ), the copy
// on disk, and a second start on a signed consent.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentSessionView, ConsentStatusView } from '@preload/contract';
import { createApiClient } from '@main/core/api';
import type { ApiClient } from '@main/core/api';
import { ContractFailure } from '@main/core/agent/host/contract-host';
import { PollScheduler } from '@main/core/agent/background/poll-scheduler';
import { ConsentDesk, pagePatientDisplay } from '@main/core/consent/desk';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { plainPng, signaturePng } from '../../support/data/png-images';

// A drawn signature, as the patient display's pad writes it.
const PNG = signaturePng().toString('base64');

let emulator: EmulatorProcess;
let scratch: string;
let client: ApiClient;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-consent-desk-'));
  client = createApiClient({ baseUrl: emulator.info.base_url, apiKey: emulator.info.keys.pro });
});
afterAll(async () => {
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

async function newExam(patient: string): Promise<string> {
  const res = await api(emulator.info, emulator.info.keys.pro, 'POST', '/exams', {
    name: `desk ${Date.now()}`,
    patient_name: patient,
    files: [{ name: 'a.dcm', size: 10 }],
  });
  expect(res.status).toBe(201);
  return res.json['id'] as string;
}

function desk(options: { client?: ApiClient; folder?: string } = {}) {
  const statuses: { exam_id: string; consent: ConsentStatusView }[] = [];
  const sessions: (ConsentSessionView | null)[] = [];
  const d = new ConsentDesk({
    client: () => options.client ?? client,
    settings: () => ({ country_code: 'CL', copies_folder: options.folder ?? null }),
    dataDir: scratch,
    language: () => 'en',
    display: pagePatientDisplay(() => 'http://127.0.0.1:1'),
    emitStatus: (exam_id, consent) => statuses.push({ exam_id, consent }),
    emitSession: (s) => sessions.push(s),
    poller: new PollScheduler({
      gate: () => ({ limit: null, remaining: null, blockedForWallMs: 0, resetInWallMs: null }),
    }),
  });
  return { d, statuses, sessions };
}

const failureCode = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return e instanceof ContractFailure ? e.code : `other: ${String(e)}`;
  }
  return 'no failure';
};

describe('the consent desk', () => {
  it('runs a consent from start to a verified, privately saved signed copy', async () => {
    const examId = await newExam('Ana Muñoz');
    const { d, statuses, sessions } = desk();
    expect((await d.overview(examId)).consent.status).toBe('none');
    const started = await d.start(examId, 'es');
    expect(started).toMatchObject({
      outcome: 'started',
      consent: { status: 'pending', country_code: 'CL', locale: 'es' },
    });

    const session = await d.openDisplay(examId, 'Ana Muñoz');
    expect(session.patient_url).toBe(`http://127.0.0.1:1/?patient=${encodeURIComponent(session.token)}#/patient`);
    expect(d.patientSession(session.id)).toMatchObject({
      state: 'active',
      language: 'es',
      country_code: 'CL',
      signer_name: 'Ana Muñoz',
    });
    expect(d.patientSession('cs_other')).toEqual({ state: 'idle' });
    const blank = Buffer.from(await d.patientPdf(session.id), 'base64');
    expect(blank.subarray(0, 5).toString()).toBe('%PDF-');

    d.patientProgress(session.id, 'signing');
    const form = { signer_name: 'Ana Muñoz', birth_date: '1980-01-31', signature_png: PNG };
    expect(await failureCode(d.patientSign(session.id, { ...form, document: '12345678-9' }))).toBe('invalid_rut');
    expect(await failureCode(d.patientSign(session.id, { ...form, document: '12345678' }))).toBe('missing_hyphen');
    expect((await d.overview(examId)).consent.status).toBe('pending');
    await d.patientSign(session.id, { ...form, document: '12.345.678-5' });

    // Signed: the session and its token are gone, the window heard it.
    expect(d.sessions.byToken(session.token)).toBeNull();
    expect(await failureCode(d.patientPdf(session.id))).toBe('session_ended');
    expect(sessions.map((s) => s?.phase ?? null)).toEqual(['waiting', 'waiting', 'signing', null]);
    expect(statuses.at(-1)).toMatchObject({
      exam_id: examId,
      consent: { status: 'signed', signing_method: 'in_person' },
    });

    const v = await d.verify(examId);
    expect(v.verified).toBe(true);
    expect(v.local_hash).toBe(v.service_hash);
    expect(v.saved_to).toBe(join(scratch, 'consent', `consent-${examId}-signed.pdf`));
    expect(statSync(v.saved_to ?? '').mode & 0o777).toBe(0o600);
    expect(readFileSync(v.saved_to ?? '')).toEqual(Buffer.from(v.pdf_base64, 'base64'));

    // A second start is an outcome, not a failure.
    expect(await d.start(examId, 'en')).toMatchObject({ outcome: 'already_signed', consent: { status: 'signed' } });
    d.close();
  });

  it('refuses a blank or unreadable signature and names or documents of control characters, before asking the service', async () => {
    const examId = await newExam('Dora Vidal');
    let signCalls = 0;
    const counting: ApiClient = {
      ...client,
      consent: {
        ...client.consent,
        signInPerson: (...a) => {
          signCalls++;
          return client.consent.signInPerson(...a);
        },
      },
    };
    const { d } = desk({ client: counting });
    await d.start(examId, 'es');
    // The operator's prefill is cleaned too; one of control characters only is refused.
    expect(await failureCode(d.openDisplay(examId, '\u0000\u001b'))).toBe('signer_name_required');
    const session = await d.openDisplay(examId, ' Dora\u0000 Vidal\u009b ');
    expect(session.signer_name).toBe('Dora Vidal');
    const form = { signer_name: 'Dora Vidal', document: '12.345.678-5', birth_date: null, signature_png: PNG };
    const b64 = (png: Buffer): string => png.toString('base64');
    expect(
      await failureCode(d.patientSign(session.id, { ...form, signature_png: b64(plainPng(600, 200, [0, 0, 0, 0])) })),
    ).toBe('signature_blank');
    expect(
      await failureCode(
        d.patientSign(session.id, { ...form, signature_png: b64(plainPng(600, 200, [255, 255, 255, 255])) }),
      ),
    ).toBe('signature_blank');
    expect(
      await failureCode(
        d.patientSign(session.id, { ...form, signature_png: Buffer.from('%PDF-1.4 not an image').toString('base64') }),
      ),
    ).toBe('signature_invalid');
    expect(
      await failureCode(d.patientSign(session.id, { ...form, signature_png: b64(plainPng(5000, 100, [0, 0, 0, 0])) })),
    ).toBe('signature_invalid');
    // The 1×1 PNG the service itself would take is no signature either.
    const onePixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    expect(await failureCode(d.patientSign(session.id, { ...form, signature_png: onePixel }))).toBe(
      'signature_invalid',
    );
    expect(await failureCode(d.patientSign(session.id, { ...form, signer_name: '\u0000' }))).toBe(
      'signer_name_required',
    );
    expect(await failureCode(d.patientSign(session.id, { ...form, document: '\u0000\u0007' }))).toBe(
      'signer_document_required',
    );
    expect(await failureCode(d.email(examId, 'dora@example.cl', '\u0000'))).toBe('signer_name_required');
    expect(signCalls).toBe(0);
    expect((await d.overview(examId)).consent.status).toBe('pending');

    // A real drawing, and a name with a stray control character cleaned away, sign.
    await d.patientSign(session.id, { ...form, signer_name: 'Dora\u0000 Vidal' });
    expect(signCalls).toBe(1);
    expect((await d.overview(examId)).consent.status).toBe('signed');
    d.close();
  });

  it('refuses to open the patient display on a consent never started, or already signed, with words', async () => {
    const examId = await newExam('Elena Ríos');
    const { d, sessions, statuses } = desk();
    expect(await failureCode(d.openDisplay(examId, 'Elena Ríos'))).toBe('consent_not_started');
    expect(sessions).toEqual([]);
    await d.start(examId, 'es');
    const s = await d.openDisplay(examId, 'Elena Ríos');
    await d.patientSign(s.id, {
      signer_name: 'Elena Ríos',
      document: '12.345.678-5',
      birth_date: null,
      signature_png: PNG,
    });
    expect(await failureCode(d.openDisplay(examId, 'Elena Ríos'))).toBe('already_signed');
    // No session was opened for it, and the window hears the consent is signed.
    expect(d.sessions.get()).toBeNull();
    expect(statuses.at(-1)).toMatchObject({ exam_id: examId, consent: { status: 'signed' } });
    d.close();
  });

  it('names both hashes when the downloaded document is not the one the service signed', async () => {
    const examId = await newExam('Bruno Díaz');
    const honest = desk();
    await honest.d.start(examId, 'en');
    const s = await honest.d.openDisplay(examId, 'Bruno Díaz');
    await honest.d.patientSign(s.id, {
      signer_name: 'Bruno Díaz',
      document: '9.876.543-3',
      birth_date: null,
      signature_png: PNG,
    });
    honest.d.close();

    // The same service, but the PDF arrives with one byte changed on the way.
    const tampering: ApiClient = {
      ...client,
      consent: {
        ...client.consent,
        pdf: async (id, type, options) => {
          const bytes = Buffer.from(await client.consent.pdf(id, type, options));
          bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
          return bytes;
        },
      },
    };
    const folder = join(scratch, 'tampered');
    const { d } = desk({ client: tampering, folder });
    const v = await d.verify(examId);
    expect(v.verified).toBe(false);
    expect(v.service_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(v.local_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(v.local_hash).not.toBe(v.service_hash);
    // Nothing is kept of a document that does not match.
    expect(v.saved_to).toBeNull();
    expect(existsSync(folder)).toBe(false);
    d.close();
  });

  it('refuses to verify a consent that is not signed', async () => {
    const examId = await newExam('Carla Soto');
    const { d } = desk();
    await d.start(examId, 'en');
    expect(await failureCode(d.verify(examId))).toBe('not_signed');
    d.close();
  });
});
