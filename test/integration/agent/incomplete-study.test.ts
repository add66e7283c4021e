// The agent (what the app and `serve` run) on a study that cannot be read whole, against a real
// emulator with DCMTK files: even an automatic folder does not upload it; the inbox names the file;
// an upload is refused until staff confirm, and then leaves that file out. Also: the agent's folders
// are private from the start, and the exam-name template refuses control characters.
import { chmodSync, lstatSync, mkdirSync, readdirSync, renameSync, statSync, truncateSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '@main/core/secrets';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { api } from '../../support/emulator/emulator';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { agentOn, poller } from '../../support/harness/agent-harness';

const ctx = emulatorScene({ scratch: 'sb-agent-incomplete-' });

const waitFor = poller(25_000, 100);

function openToOthers(root: string): string[] {
  const out: string[] = [];
  const visit = (p: string): void => {
    const s = lstatSync(p);
    if (s.isSymbolicLink()) return;
    if ((s.mode & 0o077) !== 0) out.push(relative(root, p) || '.');
    if (s.isDirectory()) for (const n of readdirSync(p)) visit(join(p, n));
  };
  visit(root);
  return out;
}

describe('agent and a study that cannot be read whole', () => {
  it('keeps it in the inbox with the file named, and uploads it without that file only when confirmed', async () => {
    const dataDir = join(ctx.scratch, 'data');
    const configDir = join(ctx.scratch, 'config');
    // Left readable by an older version: tightened at start-up.
    mkdirSync(join(dataDir, 'jobs'), { recursive: true });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'jobs'), 0o755);
    const { agent, call } = await agentOn(ctx.emulator, {
      dataDir,
      configDir,
      secretStore: new MemorySecretStore(),
      systemLanguage: 'en',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    try {
      expect(openToOthers(dataDir)).toEqual([]);
      expect(statSync(configDir).mode & 0o777).toBe(0o700);

      // The exam-name template refuses NUL, ESC and lone surrogates.
      for (const bad of ['{patient}\u0000', '\x1b[2J{patient}', '\ud800']) {
        await expect(call('settings:update', { exam_name_template: bad })).rejects.toMatchObject({
          code: 'invalid_args',
        });
      }

      await call('keys:save', { key: ctx.emulator.info.keys.clinica });
      const watched = join(ctx.scratch, 'scanner');
      mkdirSync(watched);
      await call('folders:add', {
        path: watched,
        exam_type: 'from_dicom',
        mode: 'auto',
        settle_seconds: 1,
        polling: false,
      });
      const staging = join(ctx.scratch, 'staging');
      const ex = await writeCbctExport(join(staging, 'EXPORT'), {
        volumeSlices: 5,
        scoutSlices: 1,
        patientId: 'AGENT-CUT',
        dicomdir: false,
      });
      const slice = ex.series[0]?.files[2]?.path as string;
      truncateSync(slice, Math.floor(statSync(slice).size / 2));
      const sliceName = relative(dirname(dirname(slice)), slice)
        .split(sep)
        .join('/');
      renameSync(ex.root, join(watched, 'EXPORT'));

      const item = await waitFor(
        async () => (await call('inbox:list', {})).find((i) => (i.incomplete?.length ?? 0) > 0),
        'the incomplete study in the inbox',
      );
      expect(item.status).toBe('review');
      expect(item.incomplete).toEqual([{ name: sliceName, reason: 'cut_short' }]);
      // An automatic folder did not upload it, and a plain upload is refused.
      expect(await call('uploads:list', {})).toEqual([]);
      await expect(call('inbox:upload', { id: item.id })).rejects.toMatchObject({ code: 'incomplete_study' });

      const { job_id } = await call('inbox:upload', { id: item.id, allow_incomplete: true });
      const job = await waitFor(
        async () => (await call('uploads:list', {})).find((j) => j.id === job_id && j.phase === 'ready'),
        'the confirmed upload',
        40_000,
      );
      expect(job.files_total).toBe(ex.files - 1);
      const exam = await api(ctx.emulator.info, ctx.emulator.info.keys.clinica, 'GET', `/exams/${job.exam_id}`);
      expect(exam.json).toMatchObject({ status: 'ready', patient_id: 'AGENT-CUT', file_count: ex.files - 1 });
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await agent.stop();
    }
  }, 90_000);
});
