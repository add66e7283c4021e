// A workstation clock far from the service's (a dead CMOS battery, a wrong time zone set by hand):
// `scanbridge upload` run under faketime against a real emulator whose clock is right. The
// presigned links are judged by the service's own times, the orphan search by the service's clock,
// and the skew is said in words; the upload still ends in one ready exam.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '@main/core/api';
import { cliBin, repoRoot } from '@support/repo-paths';
import { LostAnswerProxy } from '@support/network/lost-answer-proxy';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { EmulatorProcess } from '../../support/emulator/emulator';

type Run = { code: number | null; stdout: string; stderr: string };

let emu: EmulatorProcess;
let client: ApiClient;
let tmp: string;

/** The CLI with its clock moved by `offset` (faketime's syntax: "+2d", "+30m", "-3h"). */
function runSkewed(offset: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn('faketime', ['-f', offset, process.execPath, cliBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function envFor(name: string, baseUrl = emu.info.base_url): NodeJS.ProcessEnv {
  return {
    SCANBRIDGE_API_URL: baseUrl,
    SCANBRIDGE_API_KEY: emu.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: join(tmp, `${name}-data`),
    SCANBRIDGE_CONFIG_DIR: join(tmp, `${name}-config`),
    LANG: 'en_US.UTF-8',
  };
}

async function examsOf(patientId: string): Promise<{ id: string; status: string | null | undefined }[]> {
  const list = await client.exams.list({ limit: 100 });
  return list.exams.filter((e) => e.patient_id === patientId).map((e) => ({ id: e.id, status: e.status }));
}

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  tmp = mkdtempSync(join(tmpdir(), 'sb-clock-'));
});

afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('a workstation clock far from the service', () => {
  for (const [offset, label] of [
    ['+2d', 'two days ahead'],
    ['-3h', 'three hours behind'],
  ] as const) {
    it(`${label}: files mode uploads one ready exam, and the skew is said`, async () => {
      const pid = `CLK${offset.replace(/\W/g, '')}`;
      const ex = await writeCbctExport(join(tmp, `study-${pid}`), { patientId: pid, volumeSlices: 3, scoutSlices: 1 });
      const r = await runSkewed(offset, ['upload', ex.root, '--mode', 'files'], envFor(pid));
      expect(r.stderr).not.toMatch(/links expired/i);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/clock is (about )?\S+ \S+ (ahead of|behind) the service/);
      const exams = await examsOf(pid);
      expect(exams).toHaveLength(1);
      expect(exams[0]?.status).toBe('ready');
    });
  }

  it('30 minutes ahead, the create answer lost: the half-made exam is found and removed, one exam left', async () => {
    const proxy = await LostAnswerProxy.start(emu.info.base_url);
    try {
      const pid = 'CLKORPHAN';
      const ex = await writeCbctExport(join(tmp, 'study-orphan'), { patientId: pid, volumeSlices: 3, scoutSlices: 1 });
      proxy.loseNext({ method: 'POST', path: /\/exams$/ });
      const r = await runSkewed('+30m', ['upload', ex.root, '--mode', 'files'], envFor(pid, proxy.baseUrl));
      expect(proxy.lost).toHaveLength(1);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/Removed exam \S+: the service made it, but its answer to the create request was lost/);
      const exams = await examsOf(pid);
      expect(exams).toEqual([{ id: expect.any(String) as string, status: 'ready' }]);
    } finally {
      await proxy.stop();
    }
  });

  it("the connection check says the skew in the terminal's language, and still passes", async () => {
    const es = await runSkewed('+2d', ['doctor'], { ...envFor('doctor-es'), LANG: 'es_CL.UTF-8' });
    expect(es.code, es.stdout + es.stderr).toBe(0);
    expect(es.stdout).toContain('El reloj de este equipo está 2 días adelantado respecto del servicio.');
    const en = await runSkewed('-3h', ['doctor', '--json'], envFor('doctor-en'));
    expect(en.code, en.stdout + en.stderr).toBe(0);
    expect(en.stderr).toContain("This computer's clock is 3 hours behind the service's.");
    const report = JSON.parse(en.stdout.trim().split('\n').at(-1) ?? '{}') as { clock_skew_ms?: number };
    expect(report.clock_skew_ms).toBeLessThan(-2.9 * 3_600_000);
    const right = await runSkewed('+0', ['doctor'], envFor('doctor-right'));
    expect(right.stdout).not.toMatch(/clock|reloj/i);
  });
});
