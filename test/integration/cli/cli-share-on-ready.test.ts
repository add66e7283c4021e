// `scanbridge upload --share-to`: the ready exam is e-mailed exactly once, counted in the
// emulator's mail log (control API GET /mail): once on a plain run, still once after a kill -9
// between "ready" and "shared", once when the service's answer to the share is lost, never again
// on a second upload of the same study; a sandbox key sends nothing and says so.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCbctExport } from '@fixtures/dicom/generate';
import { EmulatorProcess } from '@support/emulator/emulator';
import { LostAnswerProxy } from '@support/network/lost-answer-proxy';
import { cliBin, repoRoot } from '@support/repo-paths';

type Run = { code: number | null; stdout: string; stderr: string };
type Mail = { kind: string; to: string[]; exam_id?: string };

let emu: EmulatorProcess;
let tmp: string;

function start(
  args: string[],
  o: { key?: string; dataDir: string; url?: string },
): { child: ChildProcess; done: Promise<Run> } {
  const env = {
    ...process.env,
    SCANBRIDGE_API_URL: o.url ?? emu.info.base_url,
    SCANBRIDGE_API_KEY: o.key ?? emu.info.keys.pro,
    SCANBRIDGE_DATA_DIR: o.dataDir,
    SCANBRIDGE_CONFIG_DIR: join(tmp, 'config'),
  };
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

const run = (args: string[], o: { key?: string; dataDir: string; url?: string }): Promise<Run> => start(args, o).done;

const lastLine = (r: Run): Record<string, unknown> & { exam_id: string; shared?: { state: string; to: string[] } } =>
  JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as never;

async function mailTo(address: string): Promise<Mail[]> {
  const { mail } = await emu.control<{ mail: Mail[] }>('GET', `/mail?to=${encodeURIComponent(address)}`);
  return mail.filter((m) => m.kind === 'exam_share');
}

/** Waits until the armed stall of the share call has caught a request (the fault is used up). */
async function shareCallStalled(): Promise<void> {
  for (;;) {
    const { armed } = await emu.control<{ armed: { match?: string }[] }>('GET', '/faults');
    if (!armed.some((f) => f.match === '/share')) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until the outbox of `dataDir` holds a record in `state` (the share call is then under way). */
async function outboxState(dataDir: string, state: string): Promise<void> {
  const dir = join(dataDir, 'shares');
  for (;;) {
    const found =
      existsSync(dir) &&
      readdirSync(dir).some(
        (n) => n.endsWith('.json') && readFileSync(join(dir, n), 'utf8').includes(`"state":"${state}"`),
      );
    if (found) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-share-ready-'));
  emu = await EmulatorProcess.start();
}, 60_000);

afterAll(async () => {
  await emu?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('scanbridge upload --share-to', () => {
  it('e-mails the ready exam once, and a second upload of the same study sends nothing more', async () => {
    const ex = await writeCbctExport(join(tmp, 'plain'), { volumeSlices: 4, scoutSlices: 1 });
    const dataDir = join(tmp, 'data-plain');
    const first = await run(['upload', ex.root, '--share-to', 'dra.soto@clinica.example'], { dataDir });
    expect(first.stderr).toContain('shared with dra.soto@clinica.example');
    expect(first.code).toBe(0);
    const line = lastLine(first);
    expect(line.shared?.state).toBe('sent');
    const mail = await mailTo('dra.soto@clinica.example');
    expect(mail).toHaveLength(1);
    expect(mail[0]?.exam_id).toBe(line.exam_id);

    const again = await run(['upload', ex.root, '--share-to', 'dra.soto@clinica.example,otro@clinica.example'], {
      dataDir,
    });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already uploaded');
    expect(lastLine(again).exam_id).toBe(line.exam_id);
    expect(await mailTo('dra.soto@clinica.example')).toHaveLength(1);
    expect(await mailTo('otro@clinica.example')).toHaveLength(0);
  }, 120_000);

  it('sends it once after a kill -9 between "ready" and "shared"', async () => {
    const ex = await writeCbctExport(join(tmp, 'killed'), { volumeSlices: 4, scoutSlices: 1 });
    const dataDir = join(tmp, 'data-killed');
    // The share call hangs: the exam is ready, the e-mail not yet sent, when the process dies.
    await emu.control('POST', '/faults', { target: 'api', mode: 'stall', count: 1, match: '/share' });
    const { child, done } = start(['upload', ex.root, '--share-to', 'dr.kill@clinica.example'], { dataDir });
    await outboxState(dataDir, 'sending');
    // The outbox says "sending" just before the call goes out: killed only once the service holds it.
    await shareCallStalled();
    child.kill('SIGKILL');
    await done;
    expect(await mailTo('dr.kill@clinica.example')).toHaveLength(0);

    const rerun = await run(['upload', ex.root, '--share-to', 'dr.kill@clinica.example'], { dataDir });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(lastLine(rerun).shared?.state).toBe('sent');
    expect(await mailTo('dr.kill@clinica.example')).toHaveLength(1);
    const third = await run(['upload', ex.root, '--share-to', 'dr.kill@clinica.example'], { dataDir });
    expect(third.code).toBe(0);
    expect(await mailTo('dr.kill@clinica.example')).toHaveLength(1);
  }, 120_000);

  it('does not send it twice when the answer to the share is lost', async () => {
    const ex = await writeCbctExport(join(tmp, 'lost'), { volumeSlices: 4, scoutSlices: 1 });
    const dataDir = join(tmp, 'data-lost');
    const proxy = await LostAnswerProxy.start(emu.info.base_url);
    try {
      proxy.loseNext({ method: 'POST', path: /\/share$/ });
      const first = await run(['upload', ex.root, '--share-to', 'dr.lost@clinica.example'], {
        dataDir,
        url: proxy.baseUrl,
      });
      expect(proxy.lost).toHaveLength(1);
      // The service sent it; this run cannot know, and says to run again.
      expect(first.code).toBe(1);
      expect(first.stderr).toContain('Run the same command again');
      expect(await mailTo('dr.lost@clinica.example')).toHaveLength(1);
      const rerun = await run(['upload', ex.root, '--share-to', 'dr.lost@clinica.example'], {
        dataDir,
        url: proxy.baseUrl,
      });
      expect(rerun.code).toBe(0);
      expect(lastLine(rerun).shared?.state).toBe('sent');
      expect(proxy.seen.filter((s) => s.method === 'POST' && s.path.endsWith('/share'))).toHaveLength(1);
      expect(await mailTo('dr.lost@clinica.example')).toHaveLength(1);
    } finally {
      await proxy.stop();
    }
  }, 120_000);

  it('a sandbox key sends nothing and says "not sent: test key"', async () => {
    const ex = await writeCbctExport(join(tmp, 'sandbox'), { volumeSlices: 2, scoutSlices: 1 });
    const r = await run(['upload', ex.root, '--share-to', 'dr.test@clinica.example'], {
      dataDir: join(tmp, 'data-sandbox'),
      key: emu.info.keys.sandbox,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Not sent: test key');
    expect(lastLine(r).shared?.state).toBe('not_sent');
    expect(await mailTo('dr.test@clinica.example')).toHaveLength(0);
  }, 120_000);

  it('refuses an address that is not one', async () => {
    const r = await run(['upload', tmp, '--share-to', 'dra.soto@'], { dataDir: join(tmp, 'data-bad') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--share-to must be e-mail addresses');
  });
});
