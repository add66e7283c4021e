import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import {
  bytesFor,
  createExam,
  filesBody,
  put,
  rawPut,
  readyExam,
  uploadAll,
} from '../../support/emulator/emulator-exams';

describe('emulator: presigned storage (PUT/GET) and confirm', () => {
  let emu: EmulatorProcess;
  let pro: string;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    pro = emu.info.keys.pro;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  const one = (size = 1000) => [{ name: 'serie/1.dcm', size }];
  const urlOf = (e: { upload_urls?: { url: string }[] }, i = 0): string => e.upload_urls?.[i]?.url ?? '';
  const missing = async (id: string) =>
    (await api(emu.info, pro, 'POST', `/exams/${id}/confirm`)).json.error?.['missing'];

  it('PUT needs no Authorization and answers 200 with the hex MD5 as ETag', async () => {
    const e = await createExam(emu.info, pro, filesBody('Subida', one()));
    const data = bytesFor('serie/1.dcm', 1000);
    const r = await put(urlOf(e), data);
    expect(r.status).toBe(200);
    const md5 = createHash('md5').update(data).digest('hex');
    expect(r.headers.get('etag')).toBe(`"${md5}"`);
    expect(r.json).toMatchObject({ size: 1000, etag: md5 });
    expect((await api(emu.info, pro, 'POST', `/exams/${e.id}/confirm`)).json['status']).toBe('ready');
  });

  it('a body of another size than declared → 400 size_mismatch and nothing is kept', async () => {
    const e = await createExam(emu.info, pro, filesBody('Tamaño', one(1000)));
    const short = await put(urlOf(e), Buffer.alloc(999));
    expect(short.status).toBe(400);
    expect(short.json['error']).toMatchObject({ code: 'size_mismatch' });
    const long = await rawPut(urlOf(e), { contentLength: 1001, body: Buffer.alloc(1001) });
    expect(long).toMatchObject({ status: 400 });
    const noLength = await rawPut(urlOf(e), { body: Buffer.alloc(1000) });
    expect(noLength).toMatchObject({ status: 400 });
    expect(await missing(e.id)).toEqual(['serie/1.dcm']);
  });

  it('a tampered signature, expiry or object → 403 signature_invalid', async () => {
    const e = await createExam(
      emu.info,
      pro,
      filesBody('Firma', [
        { name: 'a', size: 4 },
        { name: 'b', size: 4 },
      ]),
    );
    const url = new URL(urlOf(e));
    const sig = url.searchParams.get('sig') ?? '';
    const flipped = new URL(url);
    flipped.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const noSig = new URL(url);
    noSig.searchParams.delete('sig');
    const otherObject = new URL(urlOf(e, 1));
    otherObject.search = url.search;
    for (const u of [flipped, later, noSig, otherObject]) {
      const r = await put(u.toString(), Buffer.alloc(4));
      expect(r.status, u.toString()).toBe(403);
      expect(r.json['error']).toMatchObject({ code: 'signature_invalid' });
    }
    expect(await missing(e.id)).toEqual(['a', 'b']);
  });

  it('PUT to a deleted exam → 404; to a ready exam → 409 conflict', async () => {
    const gone = await createExam(emu.info, pro, filesBody('Borrado', one(10)));
    await api(emu.info, pro, 'DELETE', `/exams/${gone.id}`);
    const r404 = await put(urlOf(gone), Buffer.alloc(10));
    expect(r404.status).toBe(404);
    const files = one(10);
    const ready = await readyExam(emu.info, pro, filesBody('Listo', files));
    const r409 = await put(urlOf(ready), bytesFor(files[0]?.name ?? '', 10));
    expect(r409.status).toBe(409);
    expect(r409.json['error']).toMatchObject({ code: 'conflict' });
  });

  it('a client that aborts mid-PUT leaves no object and no partial file', async () => {
    const size = 4 * 1024 * 1024;
    const e = await createExam(emu.info, pro, filesBody('Abortada', one(size)));
    const r = await rawPut(urlOf(e), { contentLength: size, body: Buffer.alloc(size, 7), abortAfter: size / 2 });
    expect(r).toBe('aborted');
    await new Promise((res) => setTimeout(res, 200));
    expect(await missing(e.id)).toEqual(['serie/1.dcm']);
    expect(readdirSync(join(emu.dataDir, 'objects', '.incoming'))).toEqual([]);
    // The same URL still works afterwards.
    expect((await put(urlOf(e), Buffer.alloc(size, 7))).status).toBe(200);
    expect(await missing(e.id)).toBeUndefined();
  });

  it('a re-upload replaces the object; parallel uploads of many files all land', async () => {
    const files = Array.from({ length: 24 }, (_, i) => ({ name: `p/${i}.dcm`, size: 1000 + i * 37 }));
    const e = await createExam(emu.info, pro, filesBody('Paralelo', files));
    await put(urlOf(e), Buffer.alloc(1000, 1));
    const results = await Promise.all(
      (e.upload_urls ?? []).map((u, i) => put(u.url, bytesFor(u.name, files[i]?.size ?? 0))),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const c = await api(emu.info, pro, 'POST', `/exams/${e.id}/confirm`);
    expect(c.json).toMatchObject({
      status: 'ready',
      file_count: 24,
      storage: { bytes: files.reduce((s, f) => s + f.size, 0) },
    });
  });

  it('GET and HEAD on a presigned URL serve the stored object; not yet uploaded → 404', async () => {
    const files = [
      { name: 'g.dcm', size: 3000 },
      { name: 'h.dcm', size: 5 },
    ];
    const e = await createExam(emu.info, pro, filesBody('Descarga', files));
    await uploadAll({ ...e, upload_urls: e.upload_urls?.slice(0, 1) }, files);
    const res = await fetch(urlOf(e));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytesFor('g.dcm', 3000))).toBe(true);
    const head = await fetch(urlOf(e), { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe('3000');
    expect((await fetch(urlOf(e, 1))).status).toBe(404);
  });

  it('storage faults (error500, reset, expire) hit presigned PUTs, and no PUT counts against the rate limit', async () => {
    const files = one(100);
    const e = await createExam(emu.info, pro, filesBody('Fallas', files));
    const data = bytesFor(files[0]?.name ?? '', 100);
    const before = Number((await api(emu.info, pro, 'GET', '/me')).headers.get('x-ratelimit-remaining'));

    await emu.control('POST', '/faults', { target: 'storage', mode: 'error500', count: 1 });
    const e500 = await put(urlOf(e), data);
    expect(e500.status).toBe(500);
    await emu.control('POST', '/faults', { target: 'storage', mode: 'reset', count: 1 });
    await expect(put(urlOf(e), data)).rejects.toThrow();
    await emu.control('POST', '/faults', { target: 'storage', mode: 'expire', count: 1 });
    const expired = await put(urlOf(e), data);
    expect(expired.status).toBe(403);
    expect(expired.json['error']).toMatchObject({ code: 'url_expired' });
    expect(await missing(e.id)).toEqual(['serie/1.dcm']);
    for (let i = 0; i < 3; i++) expect((await put(urlOf(e), data)).status).toBe(200);

    // Counted between the two readings: the confirm call and the second GET /me, none of the 6 PUTs.
    const after = Number((await api(emu.info, pro, 'GET', '/me')).headers.get('x-ratelimit-remaining'));
    expect(after).toBe(before - 2);
  });

  it('uploads of a few MiB stream through intact', async () => {
    const size = 12 * 1024 * 1024 + 3;
    const e = await createExam(emu.info, pro, filesBody('Grande', one(size)));
    const data = bytesFor('big', size);
    const r = await put(urlOf(e), data);
    expect(r.json['etag']).toBe(createHash('md5').update(data).digest('hex'));
    const back = Buffer.from(await (await fetch(urlOf(e))).arrayBuffer());
    expect(back.equals(data)).toBe(true);
  });
});
