// The background polling budget: an idle agent (no window, no folders, no uploads) runs for one
// simulated hour against the emulator, and the calls are counted on the way into the emulator by a
// counting proxy in front of it. The emulator runs with `--time-scale f` and the agent's scheduler on
// a clock f times faster than the wall, so both agree on what an hour, a rate window and a
// Retry-After are.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAgent } from '../../main/core/agent';
import { scaledPollClock } from '../../main/core/agent/background/poll-scheduler';
import { MemorySecretStore } from '../../main/core/secrets';
import { api, EmulatorProcess, type EmulatorKeys } from '../support/emulator/emulator';
import type { Bench } from './types';

export type SeenCall = { at: number; method: string; path: string; status: number; retryAfter: string | null };

/** An HTTP proxy in front of the emulator that records every API call and its answer. */
export async function countingProxy(
  target: string,
): Promise<{ url: string; calls: SeenCall[]; close: () => Promise<void> }> {
  const base = new URL(target);
  const calls: SeenCall[] = [];
  const server: Server = createServer((req, res) => {
    const at = Date.now();
    const upstream = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: base.host },
      },
      (answer: IncomingMessage) => {
        const retry = answer.headers['retry-after'];
        calls.push({
          at,
          method: req.method ?? '',
          path: (req.url ?? '').split('?')[0] ?? '',
          status: answer.statusCode ?? 0,
          retryAfter: typeof retry === 'string' ? retry : null,
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname}`,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type IdleRun = {
  calls: SeenCall[];
  /** Real milliseconds one simulated hour took. */
  hourMs: number;
};

/**
 * Runs an idle agent with `key` for `hours` simulated hours at `timeScale`; `before` runs against the
 * emulator first (e.g. to use up the key's allowance).
 */
export async function idleAgentRun(options: {
  plan: keyof EmulatorKeys;
  hours?: number;
  timeScale?: number;
  before?: (emulator: EmulatorProcess, key: string) => Promise<void>;
}): Promise<IdleRun> {
  const timeScale = options.timeScale ?? 0.002;
  const hourMs = 3_600_000 * timeScale;
  const emulator = await EmulatorProcess.start({ timeScale });
  const scratch = mkdtempSync(join(tmpdir(), 'sb-poll-'));
  try {
    const key = emulator.info.keys[options.plan];
    await options.before?.(emulator, key);
    const proxy = await countingProxy(emulator.info.base_url);
    const agent = await startAgent({
      dataDir: join(scratch, 'data'),
      configDir: join(scratch, 'config'),
      env: { SCANBRIDGE_API_URL: proxy.url, SCANBRIDGE_API_KEY: key },
      secretStore: new MemorySecretStore(),
      transport: 'http',
      systemLanguage: 'en',
      notifier: { notify: () => undefined },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      tuning: { pollClock: scaledPollClock(timeScale) },
    });
    const start = Date.now();
    await new Promise((r) => setTimeout(r, hourMs * (options.hours ?? 1)));
    await agent.stop();
    await proxy.close();
    return { calls: proxy.calls.map((c) => ({ ...c, at: c.at - start })), hourMs };
  } finally {
    await emulator.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Calls `GET /me` directly until the key's allowance is gone (a 429). */
export async function exhaust(emulator: EmulatorProcess, key: string): Promise<void> {
  for (let i = 0; i < 2000; i++) if ((await api(emulator.info, key, 'GET', '/me')).status === 429) return;
  throw new Error('no 429');
}

const inFirstHour = (run: IdleRun): SeenCall[] => run.calls.filter((c) => c.at < run.hourMs);
const byPath = (calls: SeenCall[]): string =>
  Object.entries(
    calls.reduce<Record<string, number>>(
      (m, c) => ({
        ...m,
        [`${c.method} ${c.path.replace(/^\/api\/v1/, '')}`]:
          (m[`${c.method} ${c.path.replace(/^\/api\/v1/, '')}`] ?? 0) + 1,
      }),
      {},
    ),
  )
    .map(([k, v]) => `${k} ×${v}`)
    .join(', ');

export const benchPollBudget: Bench = async () => {
  const free = await idleAgentRun({ plan: 'free' });
  const pro = await idleAgentRun({ plan: 'pro' });
  const limited = await idleAgentRun({ plan: 'free', hours: 1.5, before: exhaust });
  const freeCalls = inFirstHour(free);
  const proCalls = inFirstHour(pro);
  const refused = limited.calls.filter((c) => c.status === 429);
  return {
    title:
      'Background polling budget (idle agent, one simulated hour, emulator --time-scale 0.002, calls counted at the emulator)',
    figures: [
      {
        name: 'Free plan (100/h): background calls in the hour',
        value: freeCalls.length,
        unit: 'calls',
        goal: '< 10',
        met: freeCalls.length < 10,
        note: byPath(freeCalls),
      },
      {
        name: 'Pro plan (1000/h): background calls in the hour',
        value: proCalls.length,
        unit: 'calls',
        goal: '≤ 80 (8 % of the limit)',
        met: proCalls.length <= 80,
        note: byPath(proCalls),
      },
      {
        name: 'Free plan with the allowance used up: 429 answers in 1.5 h',
        value: refused.length,
        unit: 'calls',
        goal: '≤ 1 (then waits Retry-After)',
        met: refused.length <= 1,
      },
    ],
  };
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchPollBudget(), null, 2));
}
