import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DicomHeader, FileProbe } from '@main/core/dicom';
import { readDicomHeader, readDicomHeaderSync } from '@main/core/dicom';
import type { DicomSpec, TransferSyntax } from '@fixtures/dicom/generate';
import { JAPANESE_NAME, newUid, writeCtSeries, writeDicom, writeTruncated } from '@fixtures/dicom/generate';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'scanbridge-header-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const base = (): DicomSpec => ({
  studyUid: newUid(),
  seriesUid: newUid(),
  rows: 16,
  cols: 16,
  studyDate: '20260302',
  birthDate: '19800131',
  patientId: '12345678Z',
});

function headerOf(probe: FileProbe): DicomHeader {
  if (probe.outcome.kind !== 'dicom') throw new Error(`expected a DICOM header, got ${JSON.stringify(probe.outcome)}`);
  return probe.outcome.header;
}

async function both(path: string): Promise<FileProbe> {
  const sync = readDicomHeaderSync(path);
  const async = await readDicomHeader(path);
  expect(async).toEqual(sync);
  return sync;
}

describe('reading names in their character set', () => {
  it('round-trips a Latin-1 (ISO_IR 100) name with ñ exactly', async () => {
    const f = await writeDicom(join(tmp, 'latin1.dcm'), {
      ...base(),
      patientName: 'MUÑOZ^JUAN CARLOS',
      charset: 'latin1',
      studyDescription: 'Implante pieza 3.6 - revisión',
    });
    expect(readFileSync(f.path).includes(Buffer.from('MU\xd1OZ', 'latin1'))).toBe(true);
    const h = headerOf(await both(f.path));
    expect(h.character_set).toBe('ISO_IR 100');
    expect(h.patient_name_raw).toBe('MUÑOZ^JUAN CARLOS');
    expect(h.patient_name).toBe('JUAN CARLOS MUÑOZ');
    expect(h.study_description).toBe('Implante pieza 3.6 - revisión');
    expect(h.warnings).toEqual([]);
  });

  it('round-trips a UTF-8 (ISO_IR 192) name with accents exactly', async () => {
    const f = await writeDicom(join(tmp, 'utf8.dcm'), { ...base(), patientName: 'PÉREZ^MARÍA JOSÉ', charset: 'utf8' });
    expect(readFileSync(f.path).includes(Buffer.from('PÉREZ', 'utf8'))).toBe(true);
    const h = headerOf(await both(f.path));
    expect(h.character_set).toBe('ISO_IR 192');
    expect(h.patient_name_raw).toBe('PÉREZ^MARÍA JOSÉ');
    expect(h.patient_name).toBe('MARÍA JOSÉ PÉREZ');
  });

  it('decodes ISO 2022 IR 100 (Latin-1 with code extensions)', async () => {
    const f = await writeDicom(join(tmp, 'iso2022-latin1.dcm'), {
      ...base(),
      patientName: 'NÚÑEZ^ÁLVARO',
      charset: 'iso2022-latin1',
    });
    const h = headerOf(await both(f.path));
    expect(h.character_set).toBe('ISO 2022 IR 100');
    expect(h.patient_name).toBe('ÁLVARO NÚÑEZ');
  });

  it('decodes a Japanese ISO 2022 IR 87 name with ideographic and phonetic groups', async () => {
    const f = await writeDicom(join(tmp, 'jp.dcm'), {
      ...base(),
      patientName: JAPANESE_NAME.bytes,
      charset: 'iso2022-jp',
    });
    const h = headerOf(await both(f.path));
    expect(h.patient_name_raw).toBe(JAPANESE_NAME.unicode);
    expect(h.patient_name).toBe('Tarou Yamada');
  });

  it('falls back to Latin-1 for a UTF-8 label on Latin-1 bytes, and says so', async () => {
    const f = await writeDicom(join(tmp, 'mislabelled.dcm'), {
      ...base(),
      patientName: Buffer.from('MUÑOZ^JUAN', 'latin1'),
      charset: 'utf8',
    });
    const h = headerOf(await both(f.path));
    expect(h.patient_name_raw).toBe('MUÑOZ^JUAN');
    expect(h.warnings).toEqual(['charset_fallback']);
  });

  it('reads unlabelled UTF-8 bytes (no Specific Character Set) as UTF-8', async () => {
    const f = await writeDicom(join(tmp, 'unlabelled.dcm'), {
      ...base(),
      patientName: Buffer.from('PEÑA^SOFÍA', 'utf8'),
      charset: 'default',
    });
    const h = headerOf(await both(f.path));
    expect(h.character_set).toBe('');
    expect(h.patient_name_raw).toBe('PEÑA^SOFÍA');
  });
});

describe('transfer syntaxes and layouts', () => {
  const cases: TransferSyntax[] = ['explicit', 'implicit', 'raw-implicit', 'raw-explicit'];
  for (const ts of cases) {
    it(`reads a ${ts} VR little endian file made by dump2dcm`, async () => {
      const spec = {
        ...base(),
        patientName: 'MUÑOZ^JUAN CARLOS',
        charset: 'latin1' as const,
        transferSyntax: ts,
        seriesNumber: 3,
        modality: 'CT',
        manufacturer: 'Planmeca',
        model: 'ProMax 3D',
      };
      const f = await writeDicom(join(tmp, `${ts}.dcm`), spec);
      const raw = readFileSync(f.path);
      expect(raw.toString('latin1', 128, 132) === 'DICM').toBe(!ts.startsWith('raw'));
      const p = await both(f.path);
      const h = headerOf(p);
      expect(p.size).toBe(f.size);
      expect(h.study_uid).toBe(spec.studyUid);
      expect(h.series_uid).toBe(spec.seriesUid);
      expect(h.sop_instance_uid).toBe(f.sopInstanceUid);
      expect(h.sop_class_uid).toBe('1.2.840.10008.5.1.4.1.1.2');
      expect(h.modality).toBe('CT');
      expect(h.patient_name).toBe('JUAN CARLOS MUÑOZ');
      expect(h.patient_id).toBe('12345678Z');
      expect(h.birth_date).toBe('1980-01-31');
      expect(h.study_date).toBe('2026-03-02');
      expect(h.series_number).toBe(3);
      expect(h.instance_number).toBe(1);
      expect(h.manufacturer).toBe('Planmeca');
      expect(h.model).toBe('ProMax 3D');
      expect(h.pixel_data_complete).toBe(true);
    });
  }

  it('reads a deflated explicit VR file (made by dcmconv +td)', async () => {
    const f = await writeDicom(join(tmp, 'plain.dcm'), {
      ...base(),
      rows: 256,
      cols: 256,
      pixels: 'pattern',
      patientName: 'RUIZ^EVA',
    });
    const deflated = join(tmp, 'deflated.dcm');
    execFileSync('dcmconv', ['+td', f.path, deflated]);
    const h = headerOf(await both(deflated));
    expect(h.transfer_syntax).toBe('1.2.840.10008.1.2.1.99');
    expect(h.patient_name).toBe('EVA RUIZ');
  });

  it('reads a header longer than its first 64 KiB read', async () => {
    // A 200 kB private element before the patient module, as some vendors write.
    const f = await writeDicom(join(tmp, 'long-header.dcm'), {
      ...base(),
      patientName: 'LARGO^HEADER',
      privateBlobBytes: 200_000,
    });
    expect(f.size).toBeGreaterThan(200_000);
    const h = headerOf(await both(f.path));
    expect(h.patient_name).toBe('HEADER LARGO');
  });

  it('still reads a long header right after short ones, when its first read is sized for them', async () => {
    const short = await writeCtSeries(join(tmp, 'short-then-long'), {
      slices: 3,
      rows: 8,
      cols: 8,
      patientName: 'CORTO^A',
    });
    const long = await writeDicom(join(tmp, 'short-then-long', 'long.dcm'), {
      ...base(),
      patientName: 'LARGO^B',
      privateBlobBytes: 30_000,
    });
    for (const f of short.files) expect(headerOf(readDicomHeaderSync(f.path)).header_bytes).toBeLessThan(2000);
    const h = headerOf(readDicomHeaderSync(long.path));
    expect(h.patient_name).toBe('B LARGO');
    expect(h.header_bytes).toBeGreaterThan(30_000);
  });

  it('gives up on a header longer than 1 MiB as malformed instead of reading on', async () => {
    const f = await writeDicom(join(tmp, 'huge-header.dcm'), {
      ...base(),
      patientName: 'ENORME^HEADER',
      privateBlobBytes: 1_500_000,
    });
    expect(readDicomHeaderSync(f.path).outcome).toEqual(
      expect.objectContaining({ kind: 'skipped', reason: 'malformed' }),
    );
  });
});

describe('files that are not whole or not DICOM', () => {
  it('skips a file cut inside its header as truncated, at every cut point', async () => {
    const f = await writeDicom(join(tmp, 'whole.dcm'), { ...base(), patientName: 'CORTADO^ARCHIVO', rows: 8, cols: 8 });
    const data = readFileSync(f.path);
    const pixelAt = data.lastIndexOf(Buffer.from([0xe0, 0x7f, 0x10, 0x00]));
    for (const cut of [1, 60, 128, 131, 140, 200, Math.floor(pixelAt / 2), pixelAt - 1, pixelAt + 6]) {
      const p = readDicomHeaderSync(await writeTruncated(f.path, join(tmp, `cut-${cut}.dcm`), cut));
      expect([cut, p.outcome]).toEqual([cut, expect.objectContaining({ kind: 'skipped', reason: 'truncated' })]);
    }
    // Cut exactly before (7FE0,0010): the header is whole, so the file stays in its study, marked
    // incomplete (the same bytes as an image written without pixel data).
    const atPixels = headerOf(
      readDicomHeaderSync(await writeTruncated(f.path, join(tmp, 'cut-at-pixels.dcm'), pixelAt)),
    );
    expect(atPixels).toMatchObject({ patient_name: 'ARCHIVO CORTADO', pixel_data_complete: false });
  });

  it('keeps a whole image written without a Pixel Data element, with its name, marked incomplete', async () => {
    // Like files other systems write with the pixel module left out (a Japanese multi-script name,
    // ISO 2022 IR 87, as in PS3.5 H.3.1), and like one that has the module but no pixel data.
    const spec = { ...base(), pixels: 'none' as const };
    const bare = await writeDicom(join(tmp, 'no-pixels.dcm'), {
      ...spec,
      charset: 'iso2022-jp',
      patientName: JAPANESE_NAME.bytes,
    });
    const h = headerOf(await both(bare.path));
    expect(h).toMatchObject({
      study_uid: spec.studyUid,
      series_uid: spec.seriesUid,
      sop_instance_uid: bare.sopInstanceUid,
      sop_class_uid: '1.2.840.10008.5.1.4.1.1.2',
      patient_name_raw: JAPANESE_NAME.unicode,
      pixel_data_complete: false,
      header_bytes: bare.size,
    });
    const withModule = await writeDicom(join(tmp, 'module-no-pixels.dcm'), {
      ...spec,
      modality: 'OT',
      patientName: 'SIN^PIXELES',
      extraDump: ['(0028,0002) US 1', '(0028,0004) CS [MONOCHROME2]', '(0028,0010) US 4', '(0028,0011) US 4'],
    });
    expect(headerOf(await both(withModule.path))).toMatchObject({
      patient_name: 'PIXELES SIN',
      modality: 'OT',
      pixel_data_complete: false,
    });
    // A whole image with its pixel data is complete, and a non-image object without pixel data
    // (a structured report, say) is not taken for a cut image.
    const whole = await writeDicom(join(tmp, 'with-pixels.dcm'), { ...base(), rows: 4, cols: 4 });
    expect(headerOf(await both(whole.path)).pixel_data_complete).toBe(true);
    const report = await writeDicom(join(tmp, 'report.dcm'), {
      ...base(),
      pixels: 'none',
      modality: 'SR',
      sopClassUid: '1.2.840.10008.5.1.4.1.1.88.22',
    });
    expect(headerOf(await both(report.path)).pixel_data_complete).toBe(true);
  });

  it('accepts a file cut inside its pixel data but marks it incomplete', async () => {
    const f = await writeDicom(join(tmp, 'big.dcm'), { ...base(), patientName: 'A^B', rows: 128, cols: 128 });
    const h = headerOf(readDicomHeaderSync(await writeTruncated(f.path, join(tmp, 'cut-pixels.dcm'), f.size - 1000)));
    expect(h.pixel_data_complete).toBe(false);
  });

  it('says not_dicom for junk, empty files and images, and unreadable for what cannot be opened', async () => {
    const junk: [string, Buffer][] = [
      ['Thumbs.db', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), Buffer.alloc(5000)])],
      ['notes.txt', Buffer.from('Paciente llamó para cambiar la cita.\n')],
      ['photo.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(70_000, 7)])],
      ['empty.dcm', Buffer.alloc(0)],
      ['raw-junk.bin', Buffer.concat([Buffer.from([0x08, 0x00, 0x05, 0x00]), Buffer.alloc(300, 0x41)])],
    ];
    for (const [name, data] of junk) {
      writeFileSync(join(tmp, name), data);
      expect([name, readDicomHeaderSync(join(tmp, name)).outcome]).toEqual([
        name,
        expect.objectContaining({ kind: 'skipped', reason: 'not_dicom' }),
      ]);
    }
    expect(readDicomHeaderSync(join(tmp, 'missing.dcm')).outcome).toEqual({ kind: 'skipped', reason: 'unreadable' });
    expect((await readDicomHeader(tmp)).outcome).toEqual({ kind: 'skipped', reason: 'unreadable' });
  });

  it('reads slices copied from a dump2dcm template as distinct instances', async () => {
    const s = await writeCtSeries(join(tmp, 'series'), { slices: 4, rows: 8, cols: 8, patientName: 'SERIE^UNA' });
    const headers = s.files.map((f) => headerOf(readDicomHeaderSync(f.path)));
    expect(headers.map((h) => h.sop_instance_uid)).toEqual(s.files.map((f) => f.sopInstanceUid));
    expect(headers.map((h) => h.instance_number)).toEqual([1, 2, 3, 4]);
  });
});
