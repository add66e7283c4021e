// Nothing can spend the key's allowance in a loop: with every polling path busy at once — the
// background refreshes (notifications, account, activity), a status watch on each of many pending
// consents (each asked for fifty times over) and a task that asks to run again at once, forever —
// the calls that reach the emulator in a simulated hour stay within the scheduler's ceiling (40 % of
// the plan's limit). Calls are counted on the emulator's
// side by a proxy; the emulator and the scheduler share one scaled clock. (The ceiling against tasks
// that ask for more is shown on a hand-moved clock in test/unit/core/agent/poll-scheduler.test.ts.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAgent } from '@main/core/agent';
import { createApiClient } from '@main/core/api';
import { scaledPollClock } from '@main/core/agent/background/poll-scheduler';
import { MemorySecretStore } from '@main/core/secrets';
import { countingProxy } from '../../bench/poll-budget';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

const TIME_SCALE = 0.002;
const HOUR_MS = 3_600_000 * TIME_SCALE;

describe('polling under hammering', () => {
  it('every polling path at once stays within the hourly ceiling', async () => {
    const emulator = await EmulatorProcess.start({ timeScale: TIME_SCALE });
    const scratch = mkdtempSync(join(tmpdir(), 'sb-hammer-'));
    try {
      const key = emulator.info.keys.pro;
      const exams: string[] = [];
      for (let i = 0; i < 12; i++) {
        const c = await api(emulator.info, key, 'POST', '/exams', {
          name: `watch ${i}`,
          files: [{ name: 'a.dcm', size: 10 }],
        });
        const id = String(c.json['id']);
        expect(
          (await api(emulator.info, key, 'POST', `/exams/${id}/consent`, { country_code: 'CL', locale: 'es' })).status,
        ).toBeLessThan(300);
        exams.push(id);
      }
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
        tuning: { pollClock: scaledPollClock(TIME_SCALE) },
      });
      const start = Date.now();
      try {
        // Each watch asked for many times over, as a window re-rendering in a loop would.
        for (let round = 0; round < 50; round++)
          for (const id of exams) await agent.host.call('consent:watch', { exam_id: id });
        // A task that asks to run again at once, forever (through an API client of its own).
        const own = createApiClient({ baseUrl: proxy.url, apiKey: key });
        let runaway = 0;
        agent.poll.register({
          id: 'runaway',
          foreground: true,
          intervalMs: 0,
          minIntervalMs: 0,
          nextDelayMs: () => 0,
          run: async (signal) => {
            runaway++;
            await own.account.me({ signal });
            return true;
          },
        });
        await new Promise((r) => setTimeout(r, HOUR_MS));
        // It ran until the ceiling stopped it.
        expect(runaway).toBeGreaterThan(100);
      } finally {
        await agent.stop();
        await proxy.close();
      }
      const hour = proxy.calls.filter((c) => c.at - start < HOUR_MS);
      const paths = new Set(hour.map((c) => c.path.replace(/ex_[A-Za-z0-9]+|exm_[A-Za-z0-9]+/, '{id}')));
      // Every path was busy…
      expect(paths.has('/api/v1/me')).toBe(true);
      expect([...paths].some((p) => p.endsWith('/consent'))).toBe(true);
      // …and together they stayed within the ceiling (400 an hour on Pro), with no 429.
      expect(hour.length).toBeGreaterThan(20);
      expect(hour.length).toBeLessThanOrEqual(400);
      expect(hour.filter((c) => c.status === 429)).toEqual([]);
    } finally {
      await emulator.dispose();
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
