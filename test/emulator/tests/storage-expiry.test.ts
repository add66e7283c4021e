import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { bytesFor, createExam, filesBody, put } from '../../support/emulator/emulator-exams';

describe('emulator: presigned URL lifetime (--url-ttl 1)', () => {
  let emu: EmulatorProcess;
  beforeAll(async () => {
    emu = await EmulatorProcess.start({ urlTtl: 1 });
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('URLs live --url-ttl seconds of service time; past it a PUT → 403 url_expired and nothing is stored', async () => {
    const files = [
      { name: 'a.dcm', size: 16 },
      { name: 'b.dcm', size: 16 },
    ];
    const e = await createExam(emu.info, emu.info.keys.pro, filesBody('Caduca', files));
    const urls = e.upload_urls ?? [];
    const ttlMs = Date.parse(urls[0]?.expires_at ?? '') - Date.parse(e['created_at'] as string);
    expect(ttlMs).toBeGreaterThan(0);
    expect(ttlMs).toBeLessThanOrEqual(2000);
    expect((await put(urls[0]?.url ?? '', bytesFor('a.dcm', 16))).status).toBe(200);

    await emu.control('POST', '/clock', { advance_seconds: 5 });
    const late = await put(urls[1]?.url ?? '', bytesFor('b.dcm', 16));
    expect(late.status).toBe(403);
    expect(late.json['error']).toMatchObject({ code: 'url_expired' });
    const c = await api(emu.info, emu.info.keys.pro, 'POST', `/exams/${e.id}/confirm`);
    expect(c.json.error?.['missing']).toEqual(['b.dcm']);
  });
});
