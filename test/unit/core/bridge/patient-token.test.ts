// The patient page's token in browser mode: its own session's methods only, always bound to that
// session, no event stream, and nothing once the session has ended.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methods, patientMethodNames } from '@preload/contract';
import type { ContractHost } from '@main/core/agent/host/contract-host';
import { parseArgs } from '@main/core/agent/host/contract-host';
import { ConsentSessions } from '@main/core/consent/session';
import type { Bridge } from '@main/core/bridge/server';
import { startBridge } from '@main/core/bridge/server';

let dir: string;
let bridge: Bridge;
const sessions = new ConsentSessions();
const calls: { name: string; args: unknown }[] = [];

const host: ContractHost = {
  async call(name, rawArgs) {
    const args = parseArgs(name, rawArgs);
    calls.push({ name, args });
    return { ok: true };
  },
  subscribe: () => () => undefined,
};

async function rpc(
  token: string,
  name: string,
  args: unknown = {},
): Promise<{ status: number; body: { result?: unknown; error?: { code: string } } }> {
  const res = await fetch(`http://127.0.0.1:${bridge.port}/rpc/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as { result?: unknown; error?: { code: string } } };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-bridge-patient-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>ScanBridge</title>');
  bridge = await startBridge({
    host,
    staticDir: join(dir, 'dist'),
    token: 'operator-token-0123456789',
    patient: { sessionOf: (t) => sessions.byToken(t)?.id ?? null, methods: patientMethodNames },
  });
});

afterAll(async () => {
  await bridge.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a patient page token', () => {
  it('calls its session methods, always on its own session whatever it names', async () => {
    const s = sessions.open({ exam_id: 'exm_1', language: 'es', country_code: 'CL', signer_name: 'Ana' });
    calls.length = 0;
    expect((await rpc(s.token, 'patient:pdf', { session_id: 'cs_someone_else' })).status).toBe(200);
    expect((await rpc(s.token, 'patient:session')).status).toBe(200);
    expect(calls).toEqual([
      { name: 'patient:pdf', args: { session_id: s.id } },
      { name: 'patient:session', args: { session_id: s.id } },
    ]);
  });

  it('is refused every other method of the contract, and names that are not methods', async () => {
    const s = sessions.open({ exam_id: 'exm_1', language: 'es', country_code: 'CL', signer_name: 'Ana' });
    calls.length = 0;
    const others = Object.keys(methods).filter((m) => !(patientMethodNames as readonly string[]).includes(m));
    expect(others.length).toBeGreaterThan(20);
    for (const name of [...others, 'nope:nothing', '__proto__']) {
      const r = await rpc(s.token, name);
      expect([name, r.status, r.body.error?.code]).toEqual([name, 403, 'forbidden_method']);
    }
    expect(calls).toEqual([]);
  });

  it('opens no event stream', async () => {
    const s = sessions.open({ exam_id: 'exm_1', language: 'es', country_code: 'CL', signer_name: 'Ana' });
    expect((await fetch(`http://127.0.0.1:${bridge.port}/events?token=${s.token}`)).status).toBe(401);
  });

  it('dies with its session', async () => {
    const s = sessions.open({ exam_id: 'exm_1', language: 'es', country_code: 'CL', signer_name: 'Ana' });
    sessions.end();
    expect(await rpc(s.token, 'patient:session')).toMatchObject({
      status: 401,
      body: { error: { code: 'bad_token' } },
    });
    const next = sessions.open({ exam_id: 'exm_2', language: 'en', country_code: 'CL', signer_name: 'Bo' });
    expect((await rpc(s.token, 'patient:session')).status).toBe(401);
    expect((await rpc(next.token, 'patient:session')).status).toBe(200);
  });

  it('leaves the operator token as it was', async () => {
    calls.length = 0;
    expect((await rpc('operator-token-0123456789', 'consent:displays')).status).toBe(200);
    expect((await rpc('operator-token-0123456789', 'patient:session', {})).status).toBe(200);
    expect(calls.map((c) => c.name)).toEqual(['consent:displays', 'patient:session']);
  });
});
