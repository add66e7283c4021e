import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

describe('emulator: start line, account and auth', () => {
  let emu: EmulatorProcess;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('prints the contract line with the six keys, sandbox prefixed cbct_test_', () => {
    expect(emu.info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(emu.info.control_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__emulator$/);
    expect(Object.keys(emu.info.keys).sort()).toEqual(['clinica', 'free', 'pro', 'readonly', 'sandbox', 'ultra']);
    expect(emu.info.keys.sandbox.startsWith('cbct_test_')).toBe(true);
    expect(emu.info.keys.pro.startsWith('cbct_test_')).toBe(false);
  });

  it('GET /me describes the account of each plan', async () => {
    for (const plan of ['free', 'pro', 'clinica', 'ultra'] as const) {
      const r = await api(emu.info, emu.info.keys[plan], 'GET', '/me');
      expect(r.status).toBe(200);
      expect(r.json['plan']).toBe(plan);
      expect(r.json['scopes']).toContain('exams:write');
      const storage = r.json['storage'] as Record<string, number>;
      expect(storage['used_bytes']).toBe(0);
      expect(storage['limit_bytes']).toBeGreaterThan(0);
      expect(storage['used_percent']).toBe(0);
      const exams = r.json['exams'] as Record<string, number>;
      expect(exams['count']).toBe(0);
      expect(exams['limit']).toBeGreaterThan(0);
    }
  });

  it('the readonly key holds only exams:read and account:read', async () => {
    const r = await api(emu.info, emu.info.keys.readonly, 'GET', '/me');
    expect(r.json['scopes']).toEqual(['exams:read', 'account:read']);
    expect(r.json['plan']).toBe('pro');
  });

  it('refuses a missing or unknown key with 401 unauthorized', async () => {
    const none = await api(emu.info, null, 'GET', '/me');
    expect(none.status).toBe(401);
    expect(none.json.error?.code).toBe('unauthorized');
    const bad = await api(emu.info, 'cbct_live_nope', 'GET', '/me');
    expect(bad.status).toBe(401);
    expect(bad.json.error?.code).toBe('unauthorized');
  });

  it('answers unknown endpoints with 404 not_found in the error shape', async () => {
    const r = await api(emu.info, emu.info.keys.pro, 'GET', '/nothing-here');
    expect(r.status).toBe(404);
    expect(r.json.error?.code).toBe('not_found');
    expect(typeof r.json.error?.message).toBe('string');
  });

  it('keeps the same keys and records across a restart on the same --data', async () => {
    const before = emu.info.keys;
    const me1 = await api(emu.info, before.pro, 'GET', '/me');
    emu = await emu.restart();
    expect(emu.info.keys).toEqual(before);
    const me2 = await api(emu.info, before.pro, 'GET', '/me');
    expect(me2.json['user_id']).toBe(me1.json['user_id']);
  });
});
