import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { clientFor, must } from '../../support/harness/api-clients';

describe('client: account (GET /me) against the emulator', () => {
  let emu: EmulatorProcess;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('describes the account of every plan with plan, scopes, storage and exam counts', async () => {
    for (const plan of ['free', 'pro', 'clinica', 'ultra'] as const) {
      const { client } = clientFor(emu, plan);
      const me = await client.account.me();
      expect(me.plan).toBe(plan);
      expect(me.scopes).toContain('exams:write');
      expect(me.storage.limit_bytes).toBeGreaterThan(0);
      expect(me.storage.used_percent).toBe(0);
      expect(me.exams.limit).toBeGreaterThan(0);
      expect(client.sandbox).toBe(false);
      expect(client.keyKind).toBe('live');
    }
  });

  it('keeps fields the spec does not list (clinic, key type, rate limit)', async () => {
    const me = await clientFor(emu, 'pro').client.account.me();
    expect(typeof me.clinic_name).toBe('string');
    expect(me.key_type).toBe('live');
    expect(me.rate_limit?.limit).toBe(1000);
  });

  it('shows the readonly key its two scopes', async () => {
    const me = await clientFor(emu, 'readonly').client.account.me();
    expect(me.scopes).toEqual(['exams:read', 'account:read']);
  });

  it('knows a sandbox key and the service agrees', async () => {
    const { client } = clientFor(emu, 'sandbox');
    expect(client.sandbox).toBe(true);
    expect(client.keyKind).toBe('sandbox');
    const me = await client.account.me();
    expect(me.test_mode).toBe(true);
    expect(me.key_type).toBe('sandbox');
  });

  it('feeds the rate meter from the X-RateLimit headers of each answer', async () => {
    const { client } = clientFor(emu, 'clinica');
    const seen: (number | null)[] = [];
    client.meter.subscribe((s) => seen.push(s.remaining));
    await client.account.me();
    const first = client.meter.snapshot();
    expect(first.limit).toBe(5000);
    expect(first.remaining).toBeLessThan(5000);
    expect(must(first.reset).getTime()).toBeGreaterThan(Date.now());
    expect(first.lastUpdated).toBeInstanceOf(Date);
    await client.account.me();
    expect(client.meter.snapshot().remaining).toBe(must(first.remaining) - 1);
    expect(seen).toEqual([first.remaining, must(first.remaining) - 1]);
  });
});
