// An extra take whose answer is lost on the way back, through the agent exactly as the window adds
// it (takes:add), with a real proxy that lets the request reach the emulator and cuts the answer:
// - POST /exams/{id}/extras answered but lost: API v1 can neither hand out that take's upload links
//   again nor remove it, so the take it made stays unfinished on the service. The job must not
//   announce a second take in its place (that would use up the exam's last slot): it fails plainly,
//   and one more take can still be added and ends ready;
// - the confirm's answer lost: the confirm is idempotent, the job confirms again and the take ends
//   ready, once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import { createApiClient, type ApiClient } from '@main/core/api';
import { startAgent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { LostAnswerProxy } from '../../support/network/lost-answer-proxy';
import { poller, type AgentCall, type AgentHarness } from '../../support/harness/agent-harness';

const scene = emulatorScene({ scratch: 'sb-take-lost-' });
const waitFor = poller(60_000, 50);
let proxy: LostAnswerProxy;
let client: ApiClient;
let harness: AgentHarness;

beforeAll(async () => {
  proxy = await LostAnswerProxy.start(scene.emulator.info.base_url);
  client = createApiClient({ baseUrl: scene.emulator.info.base_url, apiKey: scene.emulator.info.keys.pro });
  harness = await startOnProxy();
});
afterAll(async () => {
  await harness?.agent.stop();
  await proxy?.stop();
});

/** The agent, speaking with the service through the proxy. */
async function startOnProxy(): Promise<AgentHarness> {
  const agent = await startAgent({
    dataDir: join(scene.scratch, 'data'),
    configDir: join(scene.scratch, 'config'),
    env: { SCANBRIDGE_API_URL: proxy.baseUrl, SCANBRIDGE_API_KEY: scene.emulator.info.keys.pro },
    secretStore: new MemorySecretStore(),
    transport: 'http',
    systemLanguage: 'es',
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    tuning: { retryDelaysMs: [50, 50], uploadsBatchMs: 0, engine: { backoff: { baseMs: 20, capMs: 100 } } },
  });
  const call: AgentCall = (name, args) => agent.host.call(name, args) as never;
  return { agent, call };
}

/** A CBCT exam, uploaded and ready, made directly on the service. */
async function readyExam(name: string): Promise<string> {
  const seed = Buffer.from('main series');
  const c = await client.exams.create({ name, exam_type: 'cbct', files: [{ name: 'IMG1.dcm', size: seed.length }] });
  const put = await fetch(c.upload_urls?.[0]?.url ?? '', { method: 'PUT', body: seed });
  expect(put.ok).toBe(true);
  await client.exams.confirm(c.id);
  return c.id;
}

async function takeFolder(name: string): Promise<string> {
  const root = join(scene.scratch, name);
  mkdirSync(root);
  await writeCbctExport(root, { volumeSlices: 4, scoutSlices: 1, rows: 32, cols: 32, dicomdir: false });
  return root;
}

/** The job once it has ended: ready, or failed with no retry left. */
async function ended(jobId: string): Promise<UploadJobView> {
  return waitFor(async () => {
    const j = (await harness.call('uploads:list', {})).find((x) => x.id === jobId);
    return j && (j.phase === 'ready' || (j.phase === 'failed' && j.retry_at === null) || j.phase === 'cancelled')
      ? j
      : undefined;
  }, `job ${jobId} to end`);
}

async function takesOf(examId: string): Promise<[number, string | null | undefined][]> {
  return ((await client.exams.get(examId)).extra_series ?? []).map((x) => [x.index, x.status]);
}

describe('extra take with a lost answer', () => {
  it('POST /extras answered but lost: no second take is announced, the job fails plainly, and one more take is still accepted', async () => {
    const examId = await readyExam('Toma perdida — Pérez');
    const folder = await takeFolder('lost-create');
    proxy.loseNext({ method: 'POST', path: new RegExp(`/exams/${examId}/extras$`) });
    const { job_id } = await harness.call('takes:add', {
      exam_id: examId,
      label: 'Segunda toma',
      source: { kind: 'folder', path: folder },
    });
    const job = await ended(job_id);
    expect(proxy.lost).toEqual([expect.objectContaining({ method: 'POST', status: 201 })]);
    // Exactly one POST /extras reached the service: the lost one.
    expect(proxy.seen.filter((r) => r.method === 'POST' && r.path.endsWith(`/exams/${examId}/extras`))).toHaveLength(1);
    expect(job.phase).toBe('failed');
    expect(job.error?.code).toBe('take_unfinished');
    expect(job.error?.message).toContain('cannot be completed or removed');
    // The take the lost request made is the only one; it stays unfinished (API v1 cannot fill or remove it).
    expect(await takesOf(examId)).toEqual([[1, 'uploading']]);

    // The exam's second slot is still free: a new take is accepted and ends ready.
    const again = await harness.call('takes:add', {
      exam_id: examId,
      label: 'Tercera toma',
      source: { kind: 'folder', path: await takeFolder('after-lost') },
    });
    expect(await ended(again.job_id)).toMatchObject({ phase: 'ready', error: null });
    expect(await takesOf(examId)).toEqual([
      [1, 'uploading'],
      [2, 'ready'],
    ]);
  }, 120_000);

  it('the confirm answered but lost: the take is confirmed again and ends ready, once', async () => {
    const examId = await readyExam('Confirmación perdida — Soto');
    const folder = await takeFolder('lost-confirm');
    proxy.loseNext({ method: 'POST', path: new RegExp(`/exams/${examId}/extras/\\d+/confirm$`) });
    const { job_id } = await harness.call('takes:add', {
      exam_id: examId,
      label: 'Segunda toma',
      source: { kind: 'folder', path: folder },
    });
    expect(await ended(job_id)).toMatchObject({ phase: 'ready', error: null });
    expect(proxy.lost).toContainEqual(
      expect.objectContaining({ method: 'POST', path: `/api/v1/exams/${examId}/extras/1/confirm`, status: 200 }),
    );
    expect(proxy.seen.filter((r) => r.method === 'POST' && r.path.endsWith(`/exams/${examId}/extras`))).toHaveLength(1);
    expect(await takesOf(examId)).toEqual([[1, 'ready']]);
    const view = await harness.call('takes:get', { exam_id: examId });
    expect(view).toMatchObject({ pending_jobs: 0, blocked: null });
  }, 120_000);
});
