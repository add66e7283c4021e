// The demo's sample scanner exports: a CBCT volume of realistic size, a panoramic and intra-oral
// radiographs, for patients with Spanish names in both character sets clinics meet (ISO_IR 100 and
// ISO_IR 192). Images are simple synthetic phantoms (a head, a dental arch, a tooth), enough for a
// viewer to show something recognisable; the point is the headers and the sizes.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DicomCharset, DicomImage } from './dicom-writer';
import { encodeDicom, newUid, UIDS } from './dicom-writer';

export type SampleFile = { relativePath: string; bytes: () => Buffer };
export type SampleExport = { folder: string; label: string; files: SampleFile[] };

type Patient = { name: string; id: string; birthDate: string; sex: 'F' | 'M'; charset: DicomCharset };

export type SampleOptions = {
  /** CBCT volume: slices of `cbctSize`×`cbctSize` (default 300 of 400×400, about 96 MB, as a 0.2 mm dental scan). */
  cbctSlices?: number;
  cbctSize?: number;
  /** Studies' date (`YYYYMMDD`); default today. */
  studyDate?: string;
};

const clamp12 = (v: number): number => Math.max(0, Math.min(4095, Math.round(v)));

/** One axial slice of a head phantom: skin, skull, and at the level of the teeth an arch of them. */
function cbctSlice(size: number, z: number, slices: number): Uint16Array {
  const px = new Uint16Array(size * size);
  const c = size / 2;
  const t = z / Math.max(1, slices - 1);
  // The head narrows towards the top and bottom of the field of view.
  const scale = 0.75 + 0.25 * Math.sin(Math.PI * (0.2 + 0.6 * t));
  const rx = size * 0.42 * scale;
  const ry = size * 0.46 * scale;
  const teethLevel = Math.abs(t - 0.45) < 0.12;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = (x - c) / rx;
      const dy = (y - c) / ry;
      const r = Math.sqrt(dx * dx + dy * dy);
      let v = 24 + ((x * 7 + y * 13 + z * 5) % 17); // air, with a little noise
      if (r < 1) v = 1040 + ((x + y + z) % 23); // soft tissue
      if (r > 0.88 && r < 0.96) v = 2300 + 200 * Math.cos(x / 9); // cortical bone
      if (teethLevel) {
        // A U-shaped arch in the front half of the slice.
        const ax = (x - c) / (rx * 0.55);
        const ay = (y - c * 0.85) / (ry * 0.5);
        const onArch = Math.abs(Math.sqrt(ax * ax + ay * ay) - 1) < 0.12 && y < c * 1.15;
        if (onArch && Math.floor(Math.atan2(ay, ax) * 8) % 2 === 0) v = 3600;
      }
      px[y * size + x] = clamp12(v);
    }
  }
  return px;
}

/** A panoramic-like image: the two jaws as bright bands with rows of teeth between them. */
function panoramic(rows: number, cols: number): Uint16Array {
  const px = new Uint16Array(rows * cols);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const u = x / cols;
      const curve = 0.08 * Math.cos(2 * Math.PI * (u - 0.5));
      const v = y / rows + curve;
      let value = 600 + 300 * Math.sin(Math.PI * u);
      if (v > 0.3 && v < 0.48 && Math.floor(u * 32) % 2 === 0 && u > 0.12 && u < 0.88) value = 3300; // upper teeth
      if (v > 0.52 && v < 0.7 && Math.floor(u * 32) % 2 === 1 && u > 0.12 && u < 0.88) value = 3200; // lower teeth
      if (v > 0.72 && v < 0.82) value = 2500; // mandible
      px[y * cols + x] = clamp12(value + ((x * 3 + y * 5) % 29));
    }
  }
  return px;
}

/** An intra-oral (periapical) image: one tooth with its root. */
function intraoral(rows: number, cols: number, shift: number): Uint16Array {
  const px = new Uint16Array(rows * cols);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const u = (x - cols * (0.5 + shift)) / (cols * 0.18);
      const v = y / rows;
      const width = v < 0.45 ? 1 : 1 - (v - 0.45) * 1.6;
      let value = 900 + ((x * 11 + y * 7) % 31);
      if (Math.abs(u) < width && v > 0.08 && v < 0.95) value = v < 0.35 ? 3700 : 2900;
      px[y * cols + x] = clamp12(value);
    }
  }
  return px;
}

function common(
  p: Patient,
  studyUid: string,
  studyDate: string,
): Pick<DicomImage, 'studyUid' | 'charset' | 'patientName' | 'patientId' | 'birthDate' | 'sex' | 'studyDate'> {
  return {
    studyUid,
    charset: p.charset,
    patientName: p.name,
    patientId: p.id,
    birthDate: p.birthDate,
    sex: p.sex,
    studyDate,
  };
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

const MUNOZ: Patient = {
  name: 'MUÑOZ^JUAN CARLOS',
  id: '12.345.678-5',
  birthDate: '19800131',
  sex: 'M',
  charset: 'ISO_IR 100',
};
const PEREZ: Patient = {
  name: 'PÉREZ^MARÍA JOSÉ',
  id: '9.876.543-3',
  birthDate: '19751224',
  sex: 'F',
  charset: 'ISO_IR 192',
};
const NUNEZ: Patient = {
  name: 'NÚÑEZ^ÁLVARO',
  id: '15.555.004-K',
  birthDate: '19920607',
  sex: 'M',
  charset: 'ISO_IR 100',
};

/** A CBCT volume, one file per axial slice. */
function cbctExport(p: Patient, studyDate: string, slices: number, size: number): SampleExport {
  const cbctStudy = newUid();
  const cbctSeries = newUid();
  return {
    folder: `CBCT_${studyDate}_0915`,
    label: `CBCT (${p.name}, ${slices} files, ${size}×${size})`,
    files: Array.from({ length: slices }, (_, i) => ({
      relativePath: `IM${String(i + 1).padStart(6, '0')}.dcm`,
      bytes: () =>
        encodeDicom({
          ...common(p, cbctStudy, studyDate),
          sopClassUid: UIDS.ctImage,
          sopInstanceUid: `${cbctSeries}.${i + 1}`,
          seriesUid: cbctSeries,
          modality: 'CT',
          studyTime: '091500',
          accessionNumber: 'A-2041',
          studyDescription: 'CBCT maxilar y mandíbula',
          seriesDescription: 'Volumen 0,2 mm',
          seriesNumber: 1,
          instanceNumber: i + 1,
          manufacturer: 'Demo Imaging',
          model: 'Demo CBCT 3D',
          imageType: ['ORIGINAL', 'PRIMARY', 'AXIAL'],
          rows: size,
          cols: size,
          pixelSpacing: [0.2, 0.2],
          slice: { position: [-size * 0.1, -size * 0.1, i * 0.2], thickness: 0.2 },
          window: { center: 1800, width: 3600 },
          pixels: cbctSlice(size, i, slices),
        }),
    })),
  };
}

/** One panoramic radiograph. */
function panoramicExport(p: Patient, studyDate: string): SampleExport {
  const panoStudy = newUid();
  return {
    folder: `PANO_${studyDate}_1002`,
    label: `panorámica (${p.name})`,
    files: [
      {
        relativePath: 'PX000001.dcm',
        bytes: () =>
          encodeDicom({
            ...common(p, panoStudy, studyDate),
            sopClassUid: UIDS.digitalXRayForPresentation,
            sopInstanceUid: newUid(),
            seriesUid: newUid(),
            modality: 'PX',
            studyTime: '100200',
            accessionNumber: 'A-2042',
            studyDescription: 'Radiografía panorámica',
            seriesDescription: 'Panorámica',
            seriesNumber: 1,
            instanceNumber: 1,
            manufacturer: 'Demo Imaging',
            model: 'Demo Pan',
            imageType: ['ORIGINAL', 'PRIMARY'],
            rows: 1200,
            cols: 2400,
            pixelSpacing: [0.1, 0.1],
            window: { center: 2000, width: 4000 },
            pixels: panoramic(1200, 2400),
          }),
      },
    ],
  };
}

/** Intra-oral radiographs of the four first molars, one series. */
function intraoralExport(p: Patient, studyDate: string): SampleExport {
  const ioStudy = newUid();
  const ioSeries = newUid();
  const teeth = ['1.6', '2.6', '3.6', '4.6'];
  return {
    folder: `INTRAORAL_${studyDate}_1040`,
    label: `intraorales (${p.name}, ${teeth.length} files)`,
    files: teeth.map((tooth, i) => ({
      relativePath: `IO${String(i + 1).padStart(6, '0')}.dcm`,
      bytes: () =>
        encodeDicom({
          ...common(p, ioStudy, studyDate),
          sopClassUid: UIDS.digitalIntraOralXRayForPresentation,
          sopInstanceUid: `${ioSeries}.${i + 1}`,
          seriesUid: ioSeries,
          modality: 'IO',
          studyTime: '104000',
          accessionNumber: 'A-2043',
          studyDescription: 'Retroalveolares',
          seriesDescription: `Pieza ${tooth}`,
          seriesNumber: 1,
          instanceNumber: i + 1,
          manufacturer: 'Demo Imaging',
          model: 'Demo Sensor',
          imageType: ['ORIGINAL', 'PRIMARY'],
          rows: 1300,
          cols: 1000,
          pixelSpacing: [0.02, 0.02],
          window: { center: 2200, width: 3800 },
          pixels: intraoral(1300, 1000, (i % 2 === 0 ? -1 : 1) * 0.05),
        }),
    })),
  };
}

/** The three sample exports, built lazily file by file (a CBCT is too big to hold at once). */
export function sampleExports(options: SampleOptions = {}): SampleExport[] {
  const slices = options.cbctSlices ?? 300;
  const size = options.cbctSize ?? 400;
  const studyDate = options.studyDate ?? today();
  return [
    cbctExport(MUNOZ, studyDate, slices, size),
    panoramicExport(PEREZ, studyDate),
    intraoralExport(NUNEZ, studyDate),
  ];
}

/**
 * Writes an export into `target` file by file over about `seconds`, as a scanner does (each file
 * written in place: the watcher's settle time and completeness checks decide when it is done).
 */
export async function writeLikeAScanner(
  exp: SampleExport,
  target: string,
  seconds: number,
  signal?: AbortSignal,
): Promise<number> {
  const pause = (seconds * 1000) / Math.max(1, exp.files.length);
  let bytes = 0;
  for (const f of exp.files) {
    signal?.throwIfAborted();
    const started = Date.now();
    const path = join(target, exp.folder, f.relativePath);
    await mkdir(dirname(path), { recursive: true });
    const data = f.bytes();
    await writeFile(path, data);
    bytes += data.length;
    const left = pause - (Date.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }
  return bytes;
}
