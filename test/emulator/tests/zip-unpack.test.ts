import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { activityOf, bytesFor, createExam, type CreatedExam } from '../../support/emulator/emulator-exams';

type ZipInput = { name: string; data?: Buffer; zeros?: number; compress?: boolean } | { dir: string };

/** Writes a real ZIP with yazl, streaming (large zero entries are generated, never held in memory). */
async function buildZip(path: string, entries: ZipInput[]): Promise<number> {
  const zip = new ZipFile();
  for (const e of entries) {
    if ('dir' in e) {
      zip.addEmptyDirectory(e.dir);
    } else if (e.data) {
      zip.addBuffer(e.data, e.name, { compress: e.compress ?? true });
    } else {
      const total = e.zeros ?? 0;
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const zeros = new Readable({
        read() {
          if (sent >= total) return void this.push(null);
          const n = Math.min(chunk.length, total - sent);
          sent += n;
          this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
        },
      });
      zip.addReadStream(zeros, e.name, { compress: true, size: total });
    }
  }
  zip.end();
  await pipeline(zip.outputStream as unknown as Readable, createWriteStream(path));
  return statSync(path).size;
}

/** Rewrites fields of the central directory entries (what a hostile archive could claim). */
function patchCentralDirectory(path: string, fn: (buf: Buffer, headerOffset: number) => void): void {
  const buf = readFileSync(path);
  for (let i = 0; i + 4 <= buf.length; i++) if (buf.readUInt32LE(i) === 0x02014b50) fn(buf, i);
  writeFileSync(path, buf);
}

describe('emulator: ZIP upload mode and process-zip', () => {
  let emu: EmulatorProcess;
  let pro: string;
  let scratch: string;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    pro = emu.info.keys.pro;
    scratch = mkdtempSync(join(tmpdir(), 'sb-zip-'));
  });
  afterAll(async () => {
    await emu.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Creates a zip-mode exam sized to the archive, PUTs the archive (streamed from disk). */
  async function stage(path: string, name = 'ZIP'): Promise<CreatedExam> {
    const size = statSync(path).size;
    const e = await createExam(emu.info, pro, { name, upload_mode: 'zip', zip_size_bytes: size });
    const res = await fetch(e.upload_url?.url ?? '', {
      method: 'PUT',
      headers: { 'Content-Length': String(size) },
      body: Readable.toWeb(createReadStream(path)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    return e;
  }

  const processZip = (id: string) => api(emu.info, pro, 'POST', `/exams/${id}/process-zip`);

  it('unpacks every file entry (directories skipped), marks ready, emits exam.confirmed once; idempotent', async () => {
    const path = join(scratch, 'ok.zip');
    const a = bytesFor('CT/0001.dcm', 5000);
    const b = bytesFor('CT/0002.dcm', 7000);
    const c = bytesFor('notes.txt', 10);
    await buildZip(path, [
      { dir: 'CT' },
      { name: 'CT/0001.dcm', data: a },
      { name: 'CT/0002.dcm', data: b, compress: false },
      { name: 'notes.txt', data: c },
    ]);
    const e = await stage(path);
    expect((await api(emu.info, pro, 'POST', `/exams/${e.id}/confirm`)).status).toBe(409);
    const r = await processZip(e.id);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: e.id,
      status: 'ready',
      files_stored: 3,
      file_count: 3,
      storage: { bytes: 12010 },
    });
    const again = await processZip(e.id);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ status: 'ready', files_stored: 3 });
    const events = await activityOf(emu.info, pro, 'exam.confirmed', e.id);
    expect(events).toHaveLength(1);
    expect(Object.keys(events[0]?.data ?? {}).sort()).toEqual([
      'exam_id',
      'exam_type',
      'patient_id',
      'patient_name',
      'share_url',
      'status',
      'viewer_url',
    ]);
    // The staged archive is not kept once unpacked.
    const staged = join(emu.dataDir, 'objects', e.id, 'upload.zip');
    for (let i = 0; i < 50 && existsSync(staged); i++) await new Promise((res) => setTimeout(res, 20));
    expect(existsSync(staged)).toBe(false);
  });

  it('two process-zip calls at once unpack once and both answer 200', async () => {
    const path = join(scratch, 'twice.zip');
    await buildZip(
      path,
      Array.from({ length: 40 }, (_, i) => ({ name: `s/${i}.dcm`, data: bytesFor(`s/${i}`, 2000) })),
    );
    const e = await stage(path);
    const [r1, r2] = await Promise.all([processZip(e.id), processZip(e.id)]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(r1.json['files_stored']).toBe(40);
    expect(r2.json['files_stored']).toBe(40);
    expect(await activityOf(emu.info, pro, 'exam.confirmed', e.id)).toHaveLength(1);
  });

  it('archive not uploaded → 409 upload_incomplete; files-mode exam → 409 conflict', async () => {
    const e = await createExam(emu.info, pro, { name: 'Sin ZIP', upload_mode: 'zip', zip_size_bytes: 100 });
    const r = await processZip(e.id);
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe('upload_incomplete');
    const f = await createExam(emu.info, pro, { name: 'Archivos', files: [{ name: 'a', size: 1 }] });
    const c = await processZip(f.id);
    expect(c.status).toBe(409);
    expect(c.json.error?.code).toBe('conflict');
    expect((await processZip('exm_nope')).status).toBe(404);
  });

  it('not a ZIP → 400 validation_error, exam stays uploading', async () => {
    const path = join(scratch, 'junk.zip');
    writeFileSync(path, bytesFor('not a zip', 4096));
    const e = await stage(path);
    const r = await processZip(e.id);
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe('validation_error');
    expect((await api(emu.info, pro, 'GET', `/exams/${e.id}`)).json['status']).toBe('uploading');
  });

  it('an entry escaping the exam (../) → 400 validation_error and nothing stored', async () => {
    const path = join(scratch, 'traversal.zip');
    await buildZip(path, [
      { name: 'ok/1.dcm', data: bytesFor('1', 100) },
      { name: 'xx/evil.dcm', data: bytesFor('evil', 100) },
    ]);
    const buf = readFileSync(path);
    let at = buf.indexOf('xx/evil.dcm');
    while (at >= 0) {
      buf.write('../evil.dcm', at, 'latin1');
      at = buf.indexOf('xx/evil.dcm', at + 1);
    }
    writeFileSync(path, buf);
    const e = await stage(path);
    const r = await processZip(e.id);
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe('validation_error');
    expect(JSON.stringify(r.json.error)).toMatch(/\.\./);
    expect((await api(emu.info, pro, 'GET', `/exams/${e.id}`)).json).toMatchObject({
      status: 'uploading',
      file_count: 0,
    });
  });

  it('5000 file entries are unpacked; 5001 → 400 limit_exceeded', async () => {
    const ok = join(scratch, '5000.zip');
    await buildZip(
      ok,
      Array.from({ length: 5000 }, (_, i) => ({
        name: `s/${i}.dcm`,
        data: Buffer.from(`slice ${i}`),
        compress: false,
      })),
    );
    const e = await stage(ok);
    const r = await processZip(e.id);
    expect(r.status).toBe(200);
    expect(r.json['files_stored']).toBe(5000);

    const over = join(scratch, '5001.zip');
    await buildZip(over, [
      { dir: 's' },
      ...Array.from({ length: 5001 }, (_, i) => ({
        name: `s/${i}.dcm`,
        data: Buffer.from(`slice ${i}`),
        compress: false,
      })),
    ]);
    const e2 = await stage(over);
    const r2 = await processZip(e2.id);
    expect(r2.status).toBe(400);
    expect(r2.json.error?.code).toBe('limit_exceeded');
  });

  it('process-zip gives up past its time-out with 504 processing_timeout, stores nothing, and works once the time allows', async () => {
    const path = join(scratch, 'slow.zip');
    await buildZip(
      path,
      Array.from({ length: 2000 }, (_, i) => ({
        name: `t/${i}.dcm`,
        data: Buffer.from(`slice ${i}`),
        compress: false,
      })),
    );
    const e = await stage(path, 'Slow ZIP');
    await emu.control('POST', '/limits', { process_zip_timeout_seconds: 0.001 });
    try {
      const r = await processZip(e.id);
      expect(r.status).toBe(504);
      expect(r.json.error?.code).toBe('processing_timeout');
      const after = await api(emu.info, pro, 'GET', `/exams/${e.id}`);
      expect(after.json['status']).toBe('uploading');
      expect(after.json['file_count']).toBe(0);
    } finally {
      await emu.control('POST', '/limits', { process_zip_timeout_seconds: 300 });
    }
    const again = await processZip(e.id);
    expect(again.status).toBe(200);
    expect(again.json['files_stored']).toBe(2000);
  });

  it('a zip bomb (200 MB of zeros in a few hundred KB) is refused quickly with zip_bomb', async () => {
    const path = join(scratch, 'bomb.zip');
    const size = await buildZip(path, [{ name: 'zeros.dcm', zeros: 200 * 1024 * 1024 }]);
    expect(size).toBeLessThan(1024 * 1024);
    const e = await stage(path);
    const t0 = Date.now();
    const r = await processZip(e.id);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe('validation_error');
    expect(r.json.error?.['details']).toContainEqual(expect.objectContaining({ code: 'zip_bomb' }));
  });

  it('an entry inflating beyond its declared size → 400 zip_bomb, nothing stored', async () => {
    const path = join(scratch, 'liar.zip');
    await buildZip(path, [
      { name: 'a.dcm', data: bytesFor('a', 1000) },
      { name: 'big.dcm', data: Buffer.alloc(1024 * 1024) },
    ]);
    // Claim 1000 bytes for the 1 MiB entry (uncompressed size lives at +24 of each header).
    patchCentralDirectory(path, (buf, h) => {
      if (buf.readUInt32LE(h + 24) === 1024 * 1024) buf.writeUInt32LE(1000, h + 24);
    });
    const e = await stage(path);
    const r = await processZip(e.id);
    expect(r.status).toBe(400);
    expect(r.json.error?.['details']).toContainEqual(expect.objectContaining({ code: 'zip_bomb' }));
    expect((await api(emu.info, pro, 'GET', `/exams/${e.id}`)).json).toMatchObject({
      status: 'uploading',
      file_count: 0,
    });
  });

  it('more than 5 GiB expanded → 400 limit_exceeded before anything is inflated', async () => {
    const path = join(scratch, 'huge.zip');
    await buildZip(path, [
      { name: 'a.dcm', data: Buffer.alloc(4096) },
      { name: 'b.dcm', data: Buffer.alloc(4096) },
    ]);
    patchCentralDirectory(path, (buf, h) => buf.writeUInt32LE(3 * 1024 ** 3, h + 24));
    const e = await stage(path);
    const r = await processZip(e.id);
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe('limit_exceeded');
  });

  it('an entry whose bytes do not match its CRC-32 → 400 crc_mismatch, nothing stored', async () => {
    const path = join(scratch, 'bad-crc.zip');
    const data = bytesFor('c', 50_000);
    await buildZip(path, [
      { name: 'a.dcm', data: bytesFor('a', 1000) },
      { name: 'c.dcm', data, compress: true },
    ]);
    // Flip the CRC-32 of c.dcm in both headers (+16 in the central one, +14 in the local one).
    const buf = readFileSync(path);
    const crcOf = (name: string): number => {
      let found = -1;
      for (let i = 0; i + 46 <= buf.length; i++)
        if (buf.readUInt32LE(i) === 0x02014b50 && buf.toString('utf8', i + 46, i + 46 + 5) === name) found = i;
      return found;
    };
    const central = crcOf('c.dcm');
    expect(central).toBeGreaterThan(0);
    const local = buf.readUInt32LE(central + 42);
    const wrong = (buf.readUInt32LE(central + 16) ^ 0xffff) >>> 0;
    buf.writeUInt32LE(wrong, central + 16);
    buf.writeUInt32LE(wrong, local + 14);
    writeFileSync(path, buf);
    const e = await stage(path);
    const r = await processZip(e.id);
    expect(r.status).toBe(400);
    expect(r.json.error?.['details']).toContainEqual(expect.objectContaining({ code: 'crc_mismatch' }));
    expect((await api(emu.info, pro, 'GET', `/exams/${e.id}`)).json).toMatchObject({
      status: 'uploading',
      file_count: 0,
    });
  });
});
