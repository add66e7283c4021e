// `scanbridge upload --compress always` end to end (the real bin, a real emulator, a CBCT-like
// phantom of real DICOM files): kill -9 while the archive is written and sent, while the complete
// archive is sent and while confirming, then the same command again gives the same exam with every
// byte, an archive is continued from its checkpoint, and a complete one is never deflated again.
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@main/core/api';
import { EmulatorProcess } from '@support/emulator/emulator';
import { writePhantomSeries } from '@support/data/phantom';
import { type CliRun, startCli } from '@support/harness/cli-process';

type Run = CliRun;

let emu: EmulatorProcess;
let tmp: string;
let study: string;

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function env(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.clinica,
    SCANBRIDGE_DATA_DIR: dataDir,
  };
}

const start = startCli;

/** The record types of the journal under `dataDir`, in order (with `packed` counts). */
function journal(dataDir: string): { t: string; n?: number }[] {
  const jobs = join(dataDir, 'jobs');
  if (!existsSync(jobs)) return [];
  const out: { t: string; n?: number }[] = [];
  for (const name of readdirSync(jobs).filter((n) => n.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(jobs, name), 'utf8').split('\n')) {
      try {
        out.push(JSON.parse(line) as { t: string; n?: number });
      } catch {
        // a torn last line
      }
    }
  }
  return out;
}

async function killWhen(child: ChildProcess, check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2400; i++) {
    if (check()) {
      child.kill('SIGKILL');
      return;
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  throw new Error(`the upload ended before ${what}`);
}

/** A fresh copy of the phantom study (another folder: another job). */
function copyStudy(name: string): string {
  const dir = join(tmp, name);
  cpSync(study, dir, { recursive: true });
  return dir;
}

/** The rerun finishes the same exam: ready, every file stored byte for byte. */
async function expectStored(root: string, r: Run, examId: string | null): Promise<void> {
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout.trim()) as { exam_id: string; mode: string; files: number; bytes_sent: number };
  if (examId) expect(out.exam_id).toBe(examId);
  expect(out.mode).toBe('zip');
  const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.clinica });
  const exam = await client.exams.get(out.exam_id);
  expect(exam).toMatchObject({ status: 'ready', upload_mode: 'zip', file_count: out.files });
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
  expect(files).toHaveLength(out.files);
  for (const d of files) {
    const path = join(d.parentPath, d.name);
    const name = relative(root, path).split(sep).join('/');
    const object = join(emu.dataDir, 'objects', out.exam_id, `f-${sha(Buffer.from(name)).slice(0, 40)}`);
    expect(sha(readFileSync(object)), name).toBe(sha(readFileSync(path)));
  }
}

const examOf = (dataDir: string): string | null =>
  (journal(dataDir).findLast((r) => r.t === 'created') as { exam_id?: string } | undefined)?.exam_id ?? null;

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  tmp = mkdtempSync(join(tmpdir(), 'sb-cli-compress-'));
  study = join(tmp, 'study');
  // 64 slices of 512 × 512: 33 MB that deflate to about 16 MB (two checkpoints on the way).
  await writePhantomSeries(study, { slices: 64, size: 512 });
});

afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

// Each case runs the command twice on 33 MB (a few seconds of deflating on a busy machine).
describe('scanbridge upload --compress always, killed with -9', { timeout: 120_000 }, () => {
  it('while compressing and sending: the rerun continues the archive from its checkpoint, to the same exam, every byte', async () => {
    const root = copyStudy('compressing');
    const dataDir = join(tmp, 'data-compressing');
    const first = start(['upload', root, '--compress', 'always'], env(dataDir));
    await killWhen(
      first.child,
      () => journal(dataDir).some((r) => r.t === 'packed' && (r.n ?? 0) > 0),
      'a checkpoint was journaled',
    );
    await first.done;
    const before = journal(dataDir);
    // The exam was declared with a budget and created before the study was deflated; the archive
    // was being sent as it was written, and was not complete.
    const types = before.map((r) => r.t);
    // The command's own bundle loaded libdeflate in its workers: whole slices get its codecs (the
    // share of them deflated strong depends on how busy this computer is).
    const planned = before.find((r) => r.t === 'planned') as { sample?: { strong?: number } } | undefined;
    expect(typeof planned?.sample?.strong).toBe('number');
    expect(types.indexOf('budget')).toBeGreaterThan(-1);
    expect(types.indexOf('budget')).toBeLessThan(types.indexOf('creating'));
    expect(types).not.toContain('compressed');
    const examId = examOf(dataDir);
    expect(examId).not.toBeNull();
    // An archive a crash left with no job (its journal gone) is removed at start-up; the killed
    // job's own archive is continued.
    const orphan = join(dataDir, 'archives', 'f00dfeedf00dfeed-0-000000.zip');
    writeFileSync(orphan, 'PK');
    const again = await start(['upload', root], env(dataDir)).done;
    expect(again.stderr).toMatch(/Continuing the compression \([1-9]\d* of 64 files already compressed\)/);
    await expectStored(root, again, examId);
    expect(existsSync(orphan)).toBe(false);
    expect(readdirSync(join(dataDir, 'archives'))).toEqual([]);
  });

  it('while sending the complete archive: the rerun sends it again (not compressed again) to the same exam', async () => {
    const root = copyStudy('sending');
    const dataDir = join(tmp, 'data-sending');
    const first = start(['upload', root, '--compress', 'always', '--limit-rate', '2M'], env(dataDir));
    await killWhen(first.child, () => journal(dataDir).some((r) => r.t === 'compressed'), 'the archive was complete');
    await first.done;
    expect(journal(dataDir).some((r) => r.t === 'uploaded')).toBe(false);
    const examId = examOf(dataDir);
    const again = await start(['upload', root], env(dataDir)).done;
    expect(again.stderr).not.toContain('Compressing the study');
    expect(again.stderr).not.toContain('Continuing the compression');
    await expectStored(root, again, examId);
  });

  it('while confirming: the rerun only asks the service to unpack again', async () => {
    const root = copyStudy('confirming');
    const dataDir = join(tmp, 'data-confirming');
    // process-zip hangs: the upload is killed while it waits for the answer.
    await emu.control('POST', '/faults', { target: 'api', mode: 'stall', count: 1, match: 'process-zip' });
    const first = start(['upload', root, '--compress', 'always'], env(dataDir));
    // Killed while the service holds the unpack request (the stall has taken it), not just before it
    // is sent: else the rerun's own request would be the one held.
    for (;;) {
      const { armed } = await emu.control<{ armed: unknown[] }>('GET', '/faults');
      if (armed.length === 0 && journal(dataDir).some((r) => r.t === 'uploaded')) break;
      if (first.child.exitCode !== null) throw new Error('the upload ended before its unpack request was held');
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    await first.done;
    const examId = examOf(dataDir);
    const again = await start(['upload', root], env(dataDir)).done;
    expect(again.stderr).not.toContain('Compressing the study');
    await expectStored(root, again, examId);
    const out = JSON.parse(again.stdout.trim()) as { bytes_sent: number };
    expect(out.bytes_sent).toBe(0);
  });
});
