// The agent in Node against a real emulator, with real DICOM exports made by DCMTK: onboarding,
// a watched folder, the inbox prefill, editing, uploading, batched progress and a restart.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventName, InboxItem, UploadJobView } from '@preload/contract';
import type { Agent, Notice } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { writeCbctExport, writeRadiograph } from '../../fixtures/dicom/generate';
import { api } from '../../support/emulator/emulator';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { agentOn, poller, type AgentCall } from '../../support/harness/agent-harness';

const ctx = emulatorScene({ scratch: 'sb-agent-' });

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const waitFor = poller(25_000, 100);

type Harness = {
  agent: Agent;
  call: AgentCall;
  events: { name: EventName; payload: unknown; at: number }[];
  logs: string[];
  notices: Notice[];
};

type Dirs = { dataDir: string; configDir: string };

async function harness(dirs: Dirs, store: MemorySecretStore): Promise<Harness> {
  const logs: string[] = [];
  const notices: Notice[] = [];
  const { agent, call } = await agentOn(ctx.emulator, {
    ...dirs,
    secretStore: store,
    systemLanguage: 'es',
    notifier: { notify: (n) => notices.push(n) },
    // Each line with its fields, as the log file would hold it.
    log: {
      info: (m, f) => logs.push(JSON.stringify({ m, ...f })),
      warn: (m, f) => logs.push(JSON.stringify({ m, ...f })),
      error: (m, f) => logs.push(JSON.stringify({ m, ...f })),
    },
  });
  const events: Harness['events'] = [];
  agent.host.subscribe((name, payload) => events.push({ name, payload, at: Date.now() }));
  return { agent, call, events, logs, notices };
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

describe('agent', () => {
  it('onboards a key, shows a DCMTK export with its prefill, uploads it with the edited name and keeps it all after a restart', async () => {
    const dirs = { dataDir: join(ctx.scratch, 'data'), configDir: join(ctx.scratch, 'config') };
    const watched = join(ctx.scratch, 'scanner');
    await mkdir(watched, { recursive: true });
    const store = new MemorySecretStore();
    const h = await harness(dirs, store);
    const { keys } = ctx.emulator.info;

    const before = await h.call('keys:status', {});
    expect(before).toMatchObject({ keychain: { available: true }, live: { present: false }, active: null });
    await expect(h.call('keys:verify', { key: 'cbct_live_not_a_real_key_0000' })).rejects.toMatchObject({
      code: 'unauthorized',
    });
    expect(await store.get('live')).toBeNull();

    const saved = await h.call('keys:save', { key: keys.pro });
    expect(saved.account).toMatchObject({ plan: 'pro', sandbox: false });
    expect(saved.status).toMatchObject({
      active: 'live',
      live: { present: true, hint: keys.pro.slice(-4), session_only: false },
      sandbox: { present: false },
    });
    expect(await store.get('live')).toBe(keys.pro);
    expect(h.events.some((e) => e.name === 'keys:changed')).toBe(true);

    // A slow link, so the upload lasts long enough to show batched progress.
    await h.call('settings:update', { upload: { bandwidth_limit: 800_000, mode: 'files' } });
    const settings = await h.call('folders:add', {
      path: watched,
      exam_type: 'from_dicom',
      mode: 'review',
      settle_seconds: 1,
      polling: false,
    });
    expect(settings.watch_folders).toHaveLength(1);
    await expect(
      h.call('folders:add', { path: watched, exam_type: 'cbct', mode: 'auto', settle_seconds: 1, polling: false }),
    ).rejects.toMatchObject({ code: 'folder_exists' });
    await expect(
      h.call('folders:add', {
        path: join(ctx.scratch, 'missing'),
        exam_type: 'cbct',
        mode: 'auto',
        settle_seconds: 1,
        polling: false,
      }),
    ).rejects.toMatchObject({ code: 'folder_not_found' });

    const exp = await writeCbctExport(join(watched, 'EXPORT_001'), {
      patientName: 'MUÑOZ^JUAN CARLOS',
      volumeSlices: 40,
      scoutSlices: 3,
      rows: 128,
      cols: 128,
    });
    const item = await waitFor(async () => (await h.call('inbox:list', {}))[0], 'the export in the inbox');
    expect(item).toMatchObject({
      study_uid: exp.studyUid,
      status: 'review',
      modality: 'CT',
      study_date: '2026-03-02',
      files: 43,
      fields: {
        name: 'CBCT JUAN CARLOS MUÑOZ 2026-03-02',
        patient_name: 'JUAN CARLOS MUÑOZ',
        patient_id: '12345678Z',
        birth_date: '1980-01-31',
        exam_type: 'cbct',
        reason: '',
        expiration_days: null,
      },
    });
    expect(item.series.map((s) => [s.description, s.files, s.excluded])).toEqual([
      ['Volumen', 40, false],
      ['Scout', 3, false],
    ]);
    expect(item.warnings).not.toContain('missing_patient_name');
    const pushed = await waitFor(
      () => h.events.find((e) => e.name === 'inbox:changed')?.payload as InboxItem[] | undefined,
      'inbox:changed',
    );
    expect(pushed[0]?.fields.patient_name).toBe('JUAN CARLOS MUÑOZ');

    await expect(
      h.call('inbox:update', { id: item.id, fields: { birth_date: '31/01/1980' } } as never),
    ).rejects.toMatchObject({ code: 'invalid_args' });
    const scout = exp.series[1]?.seriesUid ?? '';
    const edited = await h.call('inbox:update', {
      id: item.id,
      fields: { name: 'Tomografía Peña — Muñoz', reason: 'Implante 3.6' },
      excluded_series: [scout],
    });
    expect(edited.fields).toMatchObject({
      name: 'Tomografía Peña — Muñoz',
      reason: 'Implante 3.6',
      patient_name: 'JUAN CARLOS MUÑOZ',
    });
    expect(edited.series.find((s) => s.series_uid === scout)?.excluded).toBe(true);

    const started = Date.now();
    const { job_id } = await h.call('inbox:upload', { id: item.id });
    const done = await waitFor(
      async () =>
        (await h.call('uploads:list', {})).find((j) => j.id === job_id && j.phase === 'ready' && j.viewer_url !== null),
      'the upload to be ready',
      40_000,
    );
    expect(done).toMatchObject({
      inbox_id: item.id,
      name: 'Tomografía Peña — Muñoz',
      patient_name: 'JUAN CARLOS MUÑOZ',
      exam_type: 'cbct',
      files_total: 40,
      files_done: 40,
      error: null,
    });
    const exam = await api(ctx.emulator.info, keys.pro, 'GET', `/exams/${done.exam_id}`);
    expect(exam.json).toMatchObject({
      name: 'Tomografía Peña — Muñoz',
      patient_name: 'JUAN CARLOS MUÑOZ',
      patient_id: '12345678Z',
      birth_date: '1980-01-31',
      reason: 'Implante 3.6',
      status: 'ready',
      file_count: 40,
    });
    await waitFor(
      async () => ((await h.call('inbox:list', {}))[0]?.status === 'uploaded' ? true : undefined),
      'the inbox item to show uploaded',
    );
    await waitFor(
      () => (h.notices.some((n) => n.kind === 'exam_ready' && n.job_id === job_id) ? true : undefined),
      'the exam-ready notice',
    );

    // Progress reached the window batched: at most ~4 pushes a second, the last one saying ready.
    await sleep(400);
    const pushes = h.events.filter((e) => e.name === 'uploads:state' && e.at >= started);
    const views = pushes.flatMap((p) => p.payload as UploadJobView[]).filter((v) => v.id === job_id);
    expect(views.some((v) => v.phase === 'uploading' && v.bytes_sent > 0 && v.bytes_sent < v.bytes_total)).toBe(true);
    expect(views.at(-1)?.phase).toBe('ready');
    const times = pushes.map((p) => p.at);
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(200);
    const seconds = ((times.at(-1) ?? started) - started) / 1000;
    expect(pushes.length).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 2);

    await h.agent.stop();

    // No key in the settings file (or anywhere in the app's folders), no key or patient data in the log.
    const settingsText = readFileSync(h.agent.settingsFile, 'utf8');
    expect(settingsText).toContain('"watch_folders"');
    for (const file of [...filesUnder(dirs.configDir), ...filesUnder(dirs.dataDir)]) {
      const text = readFileSync(file, 'latin1');
      expect(text.includes(keys.pro), file).toBe(false);
    }
    const log = h.logs.join('\n');
    for (const secret of [keys.pro, 'MUÑOZ', 'Muñoz', '12345678Z', 'Peña']) expect(log).not.toContain(secret);

    // A restart keeps the key, the edited inbox item and the finished job.
    const again = await harness(dirs, store);
    try {
      expect(await again.call('keys:status', {})).toMatchObject({ active: 'live', live: { present: true } });
      const [kept] = await again.call('inbox:list', {});
      expect(kept).toMatchObject({ id: item.id, status: 'uploaded', fields: { name: 'Tomografía Peña — Muñoz' } });
      expect((await again.call('uploads:list', {})).find((j) => j.id === job_id)).toMatchObject({
        phase: 'ready',
        exam_id: done.exam_id,
      });
      expect((await again.call('uploads:clear-finished', {})).removed).toBe(1);
      expect(await again.call('uploads:list', {})).toEqual([]);
    } finally {
      await again.agent.stop();
    }
  });

  it('uploads exports of an auto folder by itself, shows them as uploaded, and a sandbox key is marked as such', async () => {
    const dirs = { dataDir: join(ctx.scratch, 'data-auto'), configDir: join(ctx.scratch, 'config-auto') };
    const watched = join(ctx.scratch, 'scanner-auto');
    await mkdir(watched, { recursive: true });
    const h = await harness(dirs, new MemorySecretStore());
    try {
      const saved = await h.call('keys:save', { key: ctx.emulator.info.keys.sandbox });
      expect(saved.status).toMatchObject({ active: 'sandbox', sandbox: { present: true }, live: { present: false } });
      expect(saved.account.sandbox).toBe(true);
      expect((await h.call('account:get', {})).sandbox).toBe(true);
      await h.call('settings:update', { exam_name_template: '{patient} · {type}', default_expiration_days: 30 });
      await h.call('folders:add', {
        path: watched,
        exam_type: 'radiografia',
        mode: 'auto',
        settle_seconds: 1,
        polling: false,
      });
      await writeRadiograph(join(watched, 'PANO_0001', 'PX000001.dcm'), {
        modality: 'PX',
        patientName: 'PÉREZ^MARÍA JOSÉ',
        patientId: '9876543-2',
        birthDate: '19751224',
        studyDate: '20260310',
        charset: 'latin1',
      });

      const job = await waitFor(
        async () => (await h.call('uploads:list', {})).find((j) => j.phase === 'ready' && j.viewer_url !== null),
        'the automatic upload',
        40_000,
      );
      expect(job).toMatchObject({
        name: 'MARÍA JOSÉ PÉREZ · Radiografía',
        patient_name: 'MARÍA JOSÉ PÉREZ',
        exam_type: 'radiografia',
        files_total: 1,
      });
      const exam = await api(ctx.emulator.info, ctx.emulator.info.keys.sandbox, 'GET', `/exams/${job.exam_id}`);
      expect(exam.json).toMatchObject({
        name: 'MARÍA JOSÉ PÉREZ · Radiografía',
        exam_type: 'radiografia',
        expiration_days: 30,
      });
      const item = await waitFor(
        async () => (await h.call('inbox:list', {})).find((i) => i.status === 'uploaded'),
        'the inbox item',
      );
      expect(item).toMatchObject({
        job_id: job.id,
        fields: { patient_name: 'MARÍA JOSÉ PÉREZ', birth_date: '1975-12-24' },
      });
      expect(h.notices.map((n) => n.kind)).toContain('exam_ready');
    } finally {
      await h.agent.stop();
    }
  });

  it('keeps a dismissed study out of the inbox after a restart, until its files change', async () => {
    const dirs = { dataDir: join(ctx.scratch, 'data-dismiss'), configDir: join(ctx.scratch, 'config-dismiss') };
    const watched = join(ctx.scratch, 'scanner-dismiss');
    await mkdir(watched, { recursive: true });
    const store = new MemorySecretStore();
    let h = await harness(dirs, store);
    await h.call('folders:add', {
      path: watched,
      exam_type: 'from_dicom',
      mode: 'review',
      settle_seconds: 1,
      polling: false,
    });
    const first = await writeRadiograph(join(watched, 'PANO_A', 'PX1.dcm'), {
      modality: 'PX',
      patientName: 'ROJAS^ÑUSTA',
      studyDate: '20260301',
      charset: 'latin1',
    });
    const item = await waitFor(async () => (await h.call('inbox:list', {}))[0], 'the first study');
    expect((await h.call('inbox:dismiss', { id: item.id })).ok).toBe(true);
    expect(await h.call('inbox:list', {})).toEqual([]);
    await h.agent.stop();

    h = await harness(dirs, store);
    try {
      await writeRadiograph(join(watched, 'PANO_B', 'PX1.dcm'), {
        modality: 'PX',
        patientName: 'SOTO^INÉS',
        studyDate: '20260301',
        charset: 'latin1',
      });
      await waitFor(
        async () => (await h.call('inbox:list', {})).find((i) => i.fields.patient_name === 'INÉS SOTO'),
        'the second study',
      );
      await sleep(1500);
      expect((await h.call('inbox:list', {})).map((i) => i.fields.patient_name)).toEqual(['INÉS SOTO']);
      // More files for the dismissed study: it comes back for review.
      await writeRadiograph(join(watched, 'PANO_A', 'PX2.dcm'), {
        modality: 'PX',
        patientName: 'ROJAS^ÑUSTA',
        studyDate: '20260301',
        charset: 'latin1',
        studyUid: first.studyUid,
        seriesUid: first.seriesUid,
        instanceNumber: 2,
      });
      const back = await waitFor(
        async () => (await h.call('inbox:list', {})).find((i) => i.id === item.id),
        'the changed study to come back',
      );
      expect(back).toMatchObject({ files: 2, status: 'review', fields: { patient_name: 'ÑUSTA ROJAS' } });
    } finally {
      await h.agent.stop();
    }
  });

  it('refuses what the window may not do: unknown items and jobs, a removed key, a missing key', async () => {
    const dirs = { dataDir: join(ctx.scratch, 'data-refuse'), configDir: join(ctx.scratch, 'config-refuse') };
    const h = await harness(dirs, new MemorySecretStore());
    try {
      await expect(h.call('account:get', {})).rejects.toMatchObject({ code: 'no_key' });
      await expect(h.call('inbox:upload', { id: 'in_nope' })).rejects.toMatchObject({ code: 'no_key' });
      await expect(h.call('keys:activate', { kind: 'sandbox' })).rejects.toMatchObject({ code: 'no_key' });
      await h.call('keys:save', { key: ctx.emulator.info.keys.free });
      await expect(h.call('inbox:upload', { id: 'in_nope' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(h.call('uploads:pause', { id: 'up_nope' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(h.call('folders:remove', { id: 'wf_nope' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(h.call('settings:update', { upload: { concurrency: 99 } })).rejects.toMatchObject({
        code: 'invalid_args',
      });
      const removed = await h.call('keys:remove', { kind: 'live' });
      expect(removed).toMatchObject({ active: null, live: { present: false } });
      await expect(h.call('account:get', {})).rejects.toMatchObject({ code: 'no_key' });
    } finally {
      await h.agent.stop();
    }
  });
});
