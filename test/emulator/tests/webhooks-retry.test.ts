import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { createReadyExam, makePdf } from '../../support/emulator/emulator-reports';
import { WebhookReceiver } from '../../support/network/webhooks-receiver';

/**
 * The retry schedule in real time under --time-scale 0.001 (30 s → 30 ms, 2 min → 120 ms,
 * 10 min → 600 ms, 1 h → 3.6 s), and a pending retry surviving an emulator killed in between.
 */
describe('emulator: webhook retries in scaled time', () => {
  let emu: EmulatorProcess;
  let rx: WebhookReceiver;
  let dataDir: string;

  beforeAll(async () => {
    [emu, rx] = await Promise.all([
      EmulatorProcess.start({ insecureWebhooks: true, timeScale: 0.001 }),
      WebhookReceiver.start(),
    ]);
    dataDir = emu.dataDir;
  });
  afterAll(async () => {
    await Promise.all([emu.dispose(), rx.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('does not scale the 10 s answer time-out: a receiver answering after 300 ms still succeeds', async () => {
    const path = '/slow-but-fine';
    const sub = await api(emu.info, emu.info.keys.pro, 'POST', '/webhooks', {
      url: rx.url(path),
      events: ['exam.created'],
    });
    rx.setSecret(path, sub.json['secret'] as string);
    rx.setDelay(path, 300);
    const r = await api(emu.info, emu.info.keys.pro, 'POST', `/webhooks/${sub.json['id'] as string}/test`);
    expect(r.json['delivered']).toBe(true);
    expect((r.json['delivery'] as { duration_ms: number }).duration_ms).toBeGreaterThanOrEqual(290);
  });

  it('retries on the scaled schedule by itself and still owes the next retry after a crash and restart', async () => {
    const key = emu.info.keys.pro;
    const path = '/scaled';
    const sub = await api(emu.info, key, 'POST', '/webhooks', { url: rx.url(path), events: ['report.published'] });
    const hookId = sub.json['id'] as string;
    rx.setSecret(path, sub.json['secret'] as string);
    rx.setStatus(path, 500);

    const examId = await createReadyExam(emu.info, key);
    const pdf = await makePdf('Informe');
    await api(emu.info, key, 'POST', `/exams/${examId}/report`, { pdf_base64: pdf.toString('base64') });
    const first4 = await rx.waitFor(path, 4, 5000);
    // Each retry is due 30 s, 2 min, 10 min (× 0.001) after the previous one was due, so attempt i
    // comes no earlier than the sum of the delays before it, counted from attempt 1.
    const since = [1, 2, 3].map((i) => (first4[i]?.at ?? 0) - (first4[0]?.at ?? 0));
    const due = [30, 150, 750];
    for (const [i, t] of since.entries()) {
      // Arrival times: attempt 1 reached the receiver a few ms after it was due.
      expect(t).toBeGreaterThanOrEqual((due[i] ?? 0) - 20);
      expect(t).toBeLessThan((due[i] ?? 0) + 1000);
    }

    // Attempt 5 is owed 3.6 s after attempt 4: kill the emulator without a clean shutdown meanwhile.
    await new Promise((r) => setTimeout(r, 300));
    await emu.stop('SIGKILL');
    expect(rx.on(path)).toHaveLength(4);
    rx.setStatus(path, 204);
    emu = await EmulatorProcess.start({
      insecureWebhooks: true,
      timeScale: 0.001,
      dataDir,
      port: Number(new URL(emu.info.base_url).port),
    });

    const all = await rx.waitFor(path, 5, 8000);
    const fifth = all[4];
    expect(fifth?.answered).toBe(204);
    expect(fifth?.body.id).toBe(all[0]?.body.id);
    expect((fifth?.at ?? 0) - (all[0]?.at ?? 0)).toBeGreaterThanOrEqual(750 + 3600 - 20);
    await new Promise((r) => setTimeout(r, 200));
    const log = (await api(emu.info, key, 'GET', `/webhooks/${hookId}/deliveries`)).json['deliveries'] as {
      attempt: number;
      status: string;
    }[];
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [5, 'succeeded'],
      [4, 'failed'],
      [3, 'failed'],
      [2, 'failed'],
      [1, 'failed'],
    ]);
    expect(rx.on(path)).toHaveLength(5);
  });
});
