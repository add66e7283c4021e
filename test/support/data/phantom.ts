// A CBCT-like phantom as real DICOM files (DCMTK headers, 16-bit pixels): a cylinder of textured
// tissue with a bone ring, in air, with noise everywhere — what a dental CBCT volume looks like to
// a compressor (it deflates about 2–2.5×), unlike a constant test pattern. Also its opposite:
// slices of pure noise, which do not compress.
import { open } from 'node:fs/promises';
import { writeCtSeries, type WrittenSeries } from '../../fixtures/dicom/generate';

export type PhantomOptions = {
  slices: number;
  /** Rows and columns (default 256; a real CBCT slice is 512). */
  size?: number;
  studyUid?: string;
  patientName?: string;
  /** `noise`: uniformly random pixels (incompressible). */
  kind?: 'cbct' | 'noise';
};

/** Deterministic pseudo-random numbers (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pixels of slice `z`: unsigned 16-bit little endian. */
export function phantomSlice(n: number, z: number, kind: 'cbct' | 'noise'): Buffer {
  const out = Buffer.alloc(n * n * 2);
  const rnd = prng(0x9e3779b9 ^ (z * 2654435761));
  if (kind === 'noise') {
    for (let i = 0; i < out.length; i++) out[i] = Math.floor(rnd() * 256);
    return out;
  }
  const c = (n - 1) / 2;
  const radius = n * 0.42;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const r = Math.hypot(x - c, y - c);
      // Approximately normal noise (sum of uniforms).
      const g = rnd() + rnd() + rnd() + rnd() - 2;
      let v: number;
      if (r > radius) v = 24 + g * 2;
      else {
        const texture = 180 * Math.sin(x / 9 + z / 13) * Math.cos(y / 11 - z / 17) + 90 * Math.sin((x + y) / 5);
        const bone = Math.abs(r - radius * 0.7) < n * 0.03 ? 1400 : 0;
        v = 1000 + texture + bone + g * 9;
      }
      out.writeUInt16LE(Math.max(0, Math.min(65535, Math.round(v))), (y * n + x) * 2);
    }
  }
  return out;
}

/** Writes the phantom as one CT series in `dir`; each file's pixel data is its own slice. */
export async function writePhantomSeries(dir: string, o: PhantomOptions): Promise<WrittenSeries> {
  const n = o.size ?? 256;
  const series = await writeCtSeries(dir, {
    slices: o.slices,
    rows: n,
    cols: n,
    ...(o.studyUid ? { studyUid: o.studyUid } : {}),
    patientName: o.patientName ?? 'FANTOMA^CBCT',
    patientId: 'PHANTOM1',
    studyDescription: 'CBCT phantom',
  });
  // The pixel data is the last rows × cols × 2 bytes of every file.
  await Promise.all(
    series.files.map(async (f, z) => {
      const pixels = phantomSlice(n, z, o.kind ?? 'cbct');
      const handle = await open(f.path, 'r+');
      try {
        await handle.write(pixels, 0, pixels.length, f.size - pixels.length);
      } finally {
        await handle.close();
      }
    }),
  );
  return series;
}
