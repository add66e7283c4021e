// A folder is one folder however its path is spelt: `scanbridge upload` killed with kill -9 and run
// again through a symbolic link to the same export resumes the same exam, and a finished upload
// run again through the link reports that exam instead of making a second one (real bin, DCMTK
// files, a real emulator). The Windows job (test/windows/) runs the same with a path in other
// letter case.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '@main/core/api';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { startCli } from '@support/harness/cli-process';
import { journalState } from '@support/data/journal-plans';

let emu: EmulatorProcess;
let tmp: string;
let client: ApiClient;

function env(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: dataDir,
    SCANBRIDGE_CONFIG_DIR: `${dataDir}-config`,
  };
}

const start = startCli;

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function examsOf(patientId: string): Promise<{ id: string; status: string | null | undefined }[]> {
  const list = await client.exams.list({ limit: 100 });
  return list.exams.filter((e) => e.patient_id === patientId).map((e) => ({ id: e.id, status: e.status }));
}

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  tmp = mkdtempSync(join(tmpdir(), 'sb-cli-identity-'));
});

afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('one folder, two paths (a symbolic link)', () => {
  it('kill -9, then a rerun through the link resumes the same exam; a finished upload rerun through it makes no second exam', async () => {
    const patientId = 'LINKED-FOLDER';
    const ex = await writeCbctExport(join(tmp, 'Exportaciones escáner', 'Ana Núñez'), {
      volumeSlices: 30,
      scoutSlices: 2,
      rows: 128,
      cols: 128,
      patientId,
      dicomdir: false,
    });
    const link = join(tmp, 'escáner (acceso directo)');
    symlinkSync(dirname(ex.root), link);
    const viaLink = join(link, 'Ana Núñez');
    const dataDir = join(tmp, 'data');

    const owner = start(
      ['upload', ex.root, '--limit-rate', '300k', '--concurrency', '2', '--compress', 'never'],
      env(dataDir),
    );
    await waitFor(() => journalState(dataDir).done >= 4, 'the first files to be stored');
    const examId = journalState(dataDir).examId;
    expect(examId).not.toBeNull();
    owner.child.kill('SIGKILL');
    expect((await owner.done).code).toBeNull();

    const resumed = await start(['upload', viaLink], env(dataDir)).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('Resuming');
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      exam_id: examId,
      status: 'ready',
      resumed: true,
      files: ex.files,
    });

    const again = await start(['upload', join(viaLink, '.')], env(dataDir)).done;
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`already uploaded as exam ${examId}`);
    expect(JSON.parse(again.stdout)).toMatchObject({ exam_id: examId, status: 'ready' });

    expect(await examsOf(patientId)).toEqual([{ id: examId, status: 'ready' }]);
  }, 180_000);
});
