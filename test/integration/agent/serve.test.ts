// `scanbridge serve` as a process: its JSON line, the window files, RPC and SSE, and a machine
// without a keychain service (D-Bus unreachable, so the real keychain adapter fails): the key is
// then held for the session only and the app stays usable.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveScene } from '../../support/harness/agent-processes';

const ctx = serveScene('sb-serve-');

describe('scanbridge serve', () => {
  it('prints its URL line, serves the window, and keeps a key for the session when there is no keychain', async () => {
    const renderer = join(ctx.scratch, 'dist');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>ScanBridge</title>');
    const configDir = join(ctx.scratch, 'config');
    const { child, line, stderr } = await ctx.serve(['--data-dir', join(ctx.scratch, 'data'), '--renderer', renderer], {
      SCANBRIDGE_API_URL: ctx.emulator.info.base_url,
      SCANBRIDGE_CONFIG_DIR: configDir,
      // No reachable session bus: the OS keychain cannot be used.
      DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    });
    expect(line.url).toBe(`http://127.0.0.1:${line.port}/?token=${line.token}`);

    const page = await fetch(`http://127.0.0.1:${line.port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>ScanBridge</title>');

    const rpc = async (
      name: string,
      args: unknown = {},
    ): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: { code: string } } }> => {
      const res = await fetch(`http://127.0.0.1:${line.port}/rpc/${name}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${line.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
      });
      return { status: res.status, body: (await res.json()) as { result?: Record<string, unknown> } };
    };
    expect((await rpc('app:info')).body.result).toMatchObject({ transport: 'http' });
    const status = await rpc('keys:status');
    expect(status.body.result).toMatchObject({
      keychain: { available: false },
      live: { present: false },
      active: null,
    });

    const events = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${line.port}/events?token=${line.token}`, { signal: events.signal });
    if (!stream.body) throw new Error('no event stream');
    const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (needle: string): Promise<void> => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('event stream ended');
        text += value;
      }
    };
    await until(': connected');

    const saved = await rpc('keys:save', { key: ctx.emulator.info.keys.sandbox });
    expect(saved.status).toBe(200);
    expect(saved.body.result).toMatchObject({
      status: { keychain: { available: false }, sandbox: { present: true, session_only: true }, active: 'sandbox' },
      account: { sandbox: true, plan: 'pro' },
    });
    await until('event: keys:changed');
    expect(text).toMatch(/event: keys:changed\ndata: \{.*"session_only":true/);
    events.abort();
    expect((await rpc('account:get')).body.result).toMatchObject({ sandbox: true });

    const bad = await rpc('keys:save', { key: 'cbct_live_rejected_by_the_service' });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.code).toBe('unauthorized');

    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const name of readdirSync(configDir))
      expect(readFileSync(join(configDir, name), 'utf8')).not.toContain(ctx.emulator.info.keys.sandbox);
    expect(stderr()).not.toContain(ctx.emulator.info.keys.sandbox);
  });
});
