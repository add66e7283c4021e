// A certificate date failure is judged the same way on every path, not only by the connection
// check: a wrong clock (the server's own time, days away, is inside the certificate's window) is
// told from a certificate really out of date (the server agrees with this computer's clock) by a
// command, by an upload and by the window's errors — all through the API client's one judgement
// (net/cert-time.ts, judgeDateFailure). Real TLS: HTTPS servers on dated certificates of a test CA.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { writeCbctExport, type CbctExport } from '@fixtures/dicom/generate';
import { DAY, DatedTls } from '@support/network/dated-tls';
import { cliBin, repoRoot } from '@support/repo-paths';

type Run = { code: number | null; stdout: string; stderr: string };

const dated = DatedTls.create();
const now = Date.now();
let tmp: string;
let study: CbctExport;
/** Expired yesterday; the server agrees it is today. */
let expired: string;
/** Expired yesterday as this computer sees it, but the server's time is 10 days ago: this clock is wrong. */
let clockAhead: string;
/** Valid only from tomorrow; the server agrees it is today (the code alone used to say "clock wrong"). */
let notYetValid: string;

const CLOCK = { en: "This computer's clock is wrong", es: 'El reloj de este equipo está mal' };
const EXPIRED = {
  en: /The certificate presented for 127\.0\.0\.1:\d+ has expired or belongs to another name/,
  es: /El certificado presentado por 127\.0\.0\.1:\d+ está vencido o es de otro nombre/,
};

function run(args: string[], apiUrl: string, lang: string): Promise<Run> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(https?|all|no)_proxy$/i.test(k) && k !== 'NODE_EXTRA_CA_CERTS'),
  );
  const dir = join(tmp, `run-${Math.random().toString(36).slice(2)}`);
  const env = {
    ...base,
    SCANBRIDGE_API_URL: apiUrl,
    SCANBRIDGE_API_KEY: 'sb_live_dated_tls_test_key_0000000000',
    SCANBRIDGE_CA_FILE: dated.caFile,
    SCANBRIDGE_DATA_DIR: join(dir, 'data'),
    SCANBRIDGE_CONFIG_DIR: join(dir, 'config'),
    LANG: lang,
  };
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-cert-dates-'));
  [expired, clockAhead, notYetValid, study] = await Promise.all([
    dated.serve(new Date(now - 30 * DAY), new Date(now - DAY), new Date(now)),
    dated.serve(new Date(now - 30 * DAY), new Date(now - DAY), new Date(now - 10 * DAY)),
    dated.serve(new Date(now + DAY), new Date(now + 30 * DAY), new Date(now)),
    writeCbctExport(join(tmp, 'study'), { volumeSlices: 2, scoutSlices: 1 }),
  ]);
});

afterAll(async () => {
  await dated.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('a certificate date failure outside the connection check', () => {
  it('a command (whoami) says a wrong clock or an expired certificate, in each language', async () => {
    const [clockEn, clockEs, expiredEn, expiredEs] = await Promise.all([
      run(['whoami'], clockAhead, 'en_US.UTF-8'),
      run(['whoami'], clockAhead, 'es_CL.UTF-8'),
      run(['whoami'], expired, 'en_US.UTF-8'),
      run(['whoami'], expired, 'es_CL.UTF-8'),
    ]);
    for (const r of [clockEn, clockEs, expiredEn, expiredEs]) {
      expect(r.code).toBe(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(clockEn.stderr).toContain(CLOCK.en);
    expect(clockEs.stderr).toContain(CLOCK.es);
    expect(expiredEn.stderr).toMatch(EXPIRED.en);
    expect(expiredEs.stderr).toMatch(EXPIRED.es);
    expect(expiredEn.stderr).not.toContain(CLOCK.en);
  });

  it('an upload stops with the same judgement and says to run it again', async () => {
    const [clock, out] = await Promise.all([
      run(['upload', study.root], clockAhead, 'es_CL.UTF-8'),
      run(['upload', study.root], expired, 'en_US.UTF-8'),
    ]);
    expect(clock.code).not.toBe(0);
    expect(clock.stderr).toContain(CLOCK.es);
    expect(clock.stderr).toContain('Luego vuelva a ejecutar la subida');
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(EXPIRED.en);
    expect(out.stderr).not.toContain(CLOCK.en);
    expect(clock.stderr + out.stderr).not.toMatch(/\n\s+at /);
  });

  it("the window's errors: net_clock_wrong only when the clock is what is wrong", async () => {
    const codeFor = async (apiUrl: string): Promise<unknown> => {
      const agent = await startAgent({
        dataDir: join(tmp, `agent-${new URL(apiUrl).port}`),
        env: {
          SCANBRIDGE_API_URL: apiUrl,
          SCANBRIDGE_API_KEY: 'sb_live_dated_tls_test_key_0000000000',
          SCANBRIDGE_CA_FILE: dated.caFile,
        },
        secretStore: new MemorySecretStore(),
        transport: 'http',
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      });
      try {
        return await agent.host.call('account:get', {}).then(
          () => 'answered',
          (e: { code?: unknown }) => e.code,
        );
      } finally {
        await agent.stop();
      }
    };
    expect(await codeFor(clockAhead)).toBe('net_clock_wrong');
    expect(await codeFor(expired)).toBe('net_cert_invalid');
    // Not valid yet, and the server agrees on the date: the certificate, not the clock.
    expect(await codeFor(notYetValid)).toBe('net_cert_invalid');
  });
});
