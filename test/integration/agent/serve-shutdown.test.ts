// `scanbridge serve` stopped by SIGTERM in the middle of an upload (a service manager stopping the
// agent, a logout): it must be gone within 2 s, and the next start finishes the same exam.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import { newWatchFolder, openSettingsStore } from '@main/core/settings';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { api } from '../../support/emulator/emulator';
import { serveScene, type Served } from '../../support/harness/agent-processes';
import { poller } from '../../support/harness/agent-harness';

const ctx = serveScene('sb-serve-stop-');
const waitFor = poller(30_000, 50);

/** An open window: its event stream stays connected until the server ends it. */
async function openWindow({ line }: Served): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${line.port}/events?token=${line.token}`);
  void res.body?.pipeTo(new WritableStream()).catch(() => undefined);
}

describe('scanbridge serve shutdown', () => {
  it.each(['files', 'zip'] as const)(
    '%s mode: exits within 2 s of SIGTERM mid-upload, and the upload finishes the same exam on the next start',
    async (mode) => {
      const key = ctx.emulator.info.keys.clinica;
      const examsBefore = (await api(ctx.emulator.info, key, 'GET', '/exams?limit=1')).json['total'] as number;
      const configDir = join(ctx.scratch, mode, 'config');
      const watched = join(ctx.scratch, mode, 'scanner');
      await writeCbctExport(join(watched, 'CBCT'), {
        patientName: 'IBÁÑEZ^JOSÉ',
        volumeSlices: 40,
        scoutSlices: 2,
        rows: 128,
        cols: 128,
        dicomdir: false,
      });
      const settings = openSettingsStore({ cwd: configDir, env: {} });
      // Slow enough (about 10 s) that the stop lands in the middle of it. Not compressed: these
      // slices deflate to almost nothing, and this test is about stopping a transfer in flight.
      settings.update({
        api_base_url: ctx.emulator.info.base_url,
        upload: { concurrency: 2, bandwidth_limit_bytes_per_s: 150_000, mode, compress: 'never' },
        watch_folders: [newWatchFolder({ path: watched, mode: 'auto', settle_seconds: 1, exam_type: 'from_dicom' })],
      });
      const env = {
        SCANBRIDGE_DATA_DIR: join(ctx.scratch, mode, 'data'),
        SCANBRIDGE_CONFIG_DIR: configDir,
        SCANBRIDGE_API_KEY: key,
        DBUS_SESSION_BUS_ADDRESS: 'disabled:',
      };

      const first = await ctx.serve([], env);
      await openWindow(first);
      const moving = await waitFor(
        async () =>
          (await first.rpc<UploadJobView[]>('uploads:list')).find(
            (j) => j.phase === 'uploading' && j.bytes_sent > 0 && j.exam_id,
          ),
        'the upload to move',
      );
      expect(moving.bytes_sent).toBeLessThan(moving.bytes_total / 2);
      const exited = new Promise<number | null>((r) => first.child.once('exit', (code) => r(code)));
      const stopAt = performance.now();
      first.child.kill('SIGTERM');
      const code = await exited;
      const stopMs = performance.now() - stopAt;
      expect(code, first.stderr()).toBe(0);
      expect(stopMs).toBeLessThan(2000);

      // Next start, full speed: the same job resumes and finishes the exam it had created.
      settings.update({ upload: { concurrency: 2, bandwidth_limit_bytes_per_s: 0, mode, compress: 'never' } });
      const second = await ctx.serve([], env);
      const done = await waitFor(
        async () =>
          (await second.rpc<UploadJobView[]>('uploads:list')).find((j) => j.id === moving.id && j.phase === 'ready'),
        'the resumed upload to finish',
      );
      expect(done.exam_id).toBe(moving.exam_id);
      expect((await api(ctx.emulator.info, key, 'GET', '/exams?limit=1')).json['total']).toBe(examsBefore + 1);
      second.child.kill('SIGTERM');
      expect(await new Promise((r) => second.child.once('exit', r))).toBe(0);
    },
  );
});
