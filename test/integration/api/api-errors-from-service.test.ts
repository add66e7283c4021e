import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '@main/core/api/http/api-errors';
import { apiErrorText } from '@main/core/cli/words/error-words';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { clientFor, readyExam } from '../../support/harness/api-clients';

describe('client: typed errors built from the emulator’s answers', () => {
  let emu: EmulatorProcess;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('an unknown key is UnauthorizedError, with a message that sends the receptionist to Settings', async () => {
    const { client, events } = clientFor(emu, 'cbct_live_00000000000000000000000000000000');
    const err = await client.account.me().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unauthorized' });
    expect((err as ApiError).code).toBe('unauthorized');
    expect((err as ApiError).status).toBe(401);
    expect(apiErrorText(err as ApiError)).toBe('The API key was rejected. Check it in Settings.');
    expect(events.filter((e) => e.type === 'attempt')).toHaveLength(1);
  });

  it('a missing resource is NotFoundError', async () => {
    const err = await clientFor(emu, 'pro')
      .client.exams.get('exm_doesnotexist')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'not_found' });
    expect((err as ApiError).code).toBe('not_found');
  });

  it('a key without the scope is InsufficientScopeError naming the scope', async () => {
    const err = await clientFor(emu, 'readonly')
      .client.exams.create({ name: 'x', files: [{ name: 'a.dcm', size: 1 }] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'insufficient_scope' });
    expect((err as ApiError).requiredScope).toBe('exams:write');
    expect((err as ApiError).status).toBe(403);
  });

  it('an invalid exam is ValidationError with the fields at fault', async () => {
    const err = await clientFor(emu, 'pro')
      .client.exams.create({ name: '', birth_date: '2099-02-31', files: [{ name: 'a.dcm', size: 1 }] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation_error' });
    const fields = (err as ApiError).details.map((d) => d.field);
    expect(fields).toContain('name');
    expect(fields).toContain('birth_date');
    expect((err as ApiError).status).toBe(400);
  });

  it('radiografia on the Free plan is PlanRequiredError', async () => {
    const err = await clientFor(emu, 'free')
      .client.exams.create({ name: 'Panorámica', exam_type: 'radiografia', files: [{ name: 'a.dcm', size: 1 }] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'plan_required' });
    expect((err as ApiError).code).toBe('plan_required');
  });

  it('more than 5000 files is LimitExceededError', async () => {
    const files = Array.from({ length: 5001 }, (_, i) => ({ name: `f${i}.dcm`, size: 1 }));
    const err = await clientFor(emu, 'pro')
      .client.exams.create({ name: 'big', files })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'limit_exceeded' });
  });

  it('confirming before the files are stored is upload_incomplete listing them', async () => {
    const { client } = clientFor(emu, 'pro');
    const created = await client.exams.create({
      name: 'incompleto',
      files: [
        { name: 'a.dcm', size: 10 },
        { name: 'b.dcm', size: 10 },
      ],
    });
    const err = await client.exams.confirm(created.id).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'upload_incomplete' });
    expect(err).toMatchObject({ status: 409 });
    expect([...(err as ApiError).missing].sort()).toEqual(['a.dcm', 'b.dcm']);
  });

  it('an action that does not fit the state is ConflictError', async () => {
    const { client } = clientFor(emu, 'pro');
    const zip = await client.exams.create({ name: 'zip', upload_mode: 'zip', zip_size_bytes: 1000 });
    const err = await client.exams.confirm(zip.id).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'conflict' });
    expect((err as ApiError).code).toBe('conflict');
  });

  it('a consent cannot be restarted once signed: ConflictError', async () => {
    const { client } = clientFor(emu, 'pro');
    const { exam } = await readyExam(client);
    await client.consent.init(exam.id, { country_code: 'CL' });
    await client.consent.signInPerson(exam.id, {
      signer_name: 'Juan Carlos Muñoz',
      signer_rut: '12.345.678-5',
      signature_image:
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      accepted: true,
    });
    await expect(client.consent.init(exam.id)).rejects.toMatchObject({ code: 'conflict' });
  });
});
