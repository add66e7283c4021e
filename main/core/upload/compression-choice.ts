// Whether to compress a study, and in which mode to send it: decided from measurements, never
// guessed. `decideTransport` is a pure function of the study's sizes, a measured compressibility
// sample, this computer's measured deflate rate and the link's measured upload rate, so tests can
// inject any of them. `chooseTransport` gathers those measurements for a plan (the sample is taken
// only when compression could pay at all). How the choice is made: main/core/upload/README.md.
import { closeSync, openSync, readSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { deflateRawSync } from 'node:zlib';
import { chooseMode } from './auto-mode';
import { DEFLATE_LEVEL, STREAM_DEFLATE_LEVEL } from './deflate-pool';
import { readLinkRates } from './link-rate';
import { MAX_ZIP_BYTES } from './limits';
import { formatBytes, type JobPlan, type RequestedMode } from './plan';
import { UploadError } from './upload-errors';
import type { UploadMode } from './ports';

export type CompressSetting = 'auto' | 'always' | 'never';
export const COMPRESS_SETTINGS: readonly CompressSetting[] = ['auto', 'always', 'never'];

/** Until a transfer has been measured: a typical shared clinic uplink in the region (25 Mbit/s). */
export const DEFAULT_LINK_BYTES_PER_S = 25e6 / 8;
/** A single PUT is assumed to break once per this many seconds of sending, on average (mobile/shared links). */
export const SINGLE_PUT_MTBF_SECONDS = 30 * 60;
/** Compress only when it saves at least this share of the time (estimates are not exact)… */
export const MIN_GAIN = 0.1;
/** …and at least this many seconds: a study that uploads in moments goes as it always did. */
export const MIN_GAIN_SECONDS = 3;
/** Deflated / raw above this: the data does not compress enough to be worth it (JPEG, noise). */
export const MAX_USEFUL_RATIO = 0.85;
/**
 * Streamed compression (archive.ts): the exam is declared this much above the archive's estimated
 * size (plus twice the sample's own uncertainty); the padding it leaves costs as many bytes on the
 * wire. An archive that still comes out larger is not lost: the exam is made again at its size.
 */
export const BUDGET_MARGIN = 0.005;
/** The service's unpacking rate assumed for the time a ZIP takes to become ready. */
const UNPACK_BYTES_PER_S = 200 * 1024 * 1024;
/** Round trip a request pays in files mode, spread over the files in flight. */
const REQUEST_SECONDS = 0.05;

export type TransportInput = {
  requestedMode: RequestedMode;
  setting: CompressSetting;
  files: readonly { size: number }[];
  bytes: number;
  /** Exact size of the uncompressed ZIP. */
  zipSize: number;
  /** Deflated / raw of a sample of the study; null when not sampled. */
  ratio: number | null;
  /** Measured upload rate (bytes/s), null when never measured. */
  linkBytesPerS: number | null;
  /** The bandwidth limit set by staff, null for none. */
  bandwidthLimit: number | null;
  /** Measured rate at which this computer deflates (bytes/s, every worker busy). */
  deflateBytesPerS: number;
  concurrency: number;
};

export type TransportEstimate = { files: number; zip: number; compressed: number | null };
export type TransportChoice = {
  mode: UploadMode;
  compress: boolean;
  /** Plain words for logs and the CLI. */
  reason: string;
  /** Estimated seconds to ready of each way, for the record. */
  estimates: TransportEstimate;
};

/** The link rate the estimates use: the measured one (or the default), capped by the limit. */
export function effectiveLinkRate(link: number | null, limit: number | null): number {
  const l = link ?? DEFAULT_LINK_BYTES_PER_S;
  return limit !== null && limit > 0 ? Math.min(l, limit) : l;
}

/** Expected seconds lost to breaks when `seconds` of sending go in one PUT (a break restarts it). */
export function singlePutExposure(seconds: number): number {
  const p = 1 - Math.exp(-seconds / SINGLE_PUT_MTBF_SECONDS);
  return (p * seconds) / 2;
}

export function estimateTimes(i: TransportInput): TransportEstimate {
  const link = effectiveLinkRate(i.linkBytesPerS, i.bandwidthLimit);
  const unpack = i.bytes / UNPACK_BYTES_PER_S;
  const files = i.bytes / link + (i.files.length * REQUEST_SECONDS) / Math.max(1, i.concurrency);
  const zipSend = i.zipSize / link;
  const zip = zipSend + unpack + singlePutExposure(zipSend);
  if (i.ratio === null) return { files, zip, compressed: null };
  const packedSend = (i.zipSize * i.ratio * (1 + BUDGET_MARGIN)) / link;
  // The archive is sent while it is written: the slower of deflating and sending sets the pace.
  const compressed = Math.max(i.bytes / i.deflateBytesPerS, packedSend) + unpack + singlePutExposure(packedSend);
  return { files, zip, compressed };
}

/** The transport for a study (pure: every measurement is an input). */
export function decideTransport(i: TransportInput): TransportChoice {
  const base: UploadMode = i.requestedMode === 'auto' ? chooseMode(i.files, i.zipSize) : i.requestedMode;
  const estimates = estimateTimes(i);
  const keep = (reason: string): TransportChoice => ({ mode: base, compress: false, reason, estimates });
  if (i.requestedMode === 'files') return keep('files mode sends every file as it is');
  if (i.setting === 'never') return keep('compression is turned off');
  const fitsZip = i.files.every((f) => f.size < 0xffffffff) && i.files.length <= 0xffff;
  if (!fitsZip) return keep('a file is too large for a compressed ZIP');
  if (i.setting === 'always') return { mode: 'zip', compress: true, reason: 'compression is always on', estimates };
  if (i.ratio === null || estimates.compressed === null)
    return keep('compression cannot pay on this link (this computer deflates slower than it sends)');
  if (i.ratio > MAX_USEFUL_RATIO) return keep(`the data does not compress (${ratioText(i.ratio)})`);
  if (i.zipSize * i.ratio > MAX_ZIP_BYTES * 0.95) return keep('even compressed, the ZIP would pass the 1 GB limit');
  if (base === 'zip' && i.zipSize > MAX_ZIP_BYTES)
    return {
      mode: 'zip',
      compress: true,
      reason: `only compressed (${ratioText(i.ratio)}) does the ZIP fit the 1 GB limit`,
      estimates,
    };
  const current = base === 'zip' ? estimates.zip : estimates.files;
  if (estimates.compressed <= current * (1 - MIN_GAIN) && current - estimates.compressed >= MIN_GAIN_SECONDS)
    return {
      mode: 'zip',
      compress: true,
      reason: `compressing (${ratioText(i.ratio)}) shortens the upload from about ${Math.round(current)} s to ${Math.round(estimates.compressed)} s`,
      estimates,
    };
  return keep(`compressing would not shorten the upload (about ${Math.round(current)} s either way)`);
}

/** "2.3× smaller" style, from deflated / raw. */
export function ratioText(ratio: number): string {
  return `${(1 / Math.max(ratio, 1e-6)).toFixed(1)}× smaller`;
}

/**
 * `ratio`: deflated / raw of the sample; `spread`: how far that ratio may be off for the whole
 * study, relative to it (the standard error of the slices' ratios over their mean).
 */
export type Sample = { ratio: number; deflateBytesPerS: number; spread: number };

/** Deflates a few slices spread over the study: their ratio, and how fast one core deflated them. */
export function sampleCompressibility(
  files: readonly { path: string; size: number }[],
  maxFiles = 6,
  level = DEFLATE_LEVEL,
): Sample | null {
  const picks = new Set<number>();
  for (let k = 0; k < maxFiles && k < files.length; k++) picks.add(Math.floor(((k + 0.5) * files.length) / maxFiles));
  let raw = 0;
  let packed = 0;
  let seconds = 0;
  const ratios: number[] = [];
  for (const idx of picks) {
    const f = files[idx];
    if (!f || f.size === 0) continue;
    const buf = readHead(f.path, Math.min(f.size, 512 * 1024));
    if (!buf || buf.length === 0) continue;
    const t0 = performance.now();
    const n = deflateRawSync(buf, { level }).length;
    seconds += (performance.now() - t0) / 1000;
    packed += n;
    raw += buf.length;
    ratios.push(n / buf.length);
  }
  if (raw === 0) return null;
  const ratio = packed / raw;
  return { ratio, deflateBytesPerS: raw / Math.max(seconds, 1e-3), spread: relativeStandardError(ratios) };
}

/** Standard error of the mean of `xs`, relative to the mean (one value: 0.25, an honest unknown). */
function relativeStandardError(xs: readonly number[]): number {
  if (xs.length < 2) return 0.25;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return mean > 0 ? Math.sqrt(variance / xs.length) / mean : 0.25;
}

function readHead(path: string, length: number): Buffer | null {
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(length);
      const n = readSync(fd, buf, 0, length, 0);
      return buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** Workers that will really run in parallel: the cores the machine's load leaves idle (at least one). */
export function usableWorkers(workers: number, cores = availableParallelism(), load = loadavg()[0] ?? 0): number {
  return Math.max(1, Math.min(workers, (cores - load + 1) * 0.75));
}

export type ChooseOptions = {
  setting: CompressSetting;
  dataDir: string;
  bandwidthLimit: number | null;
  concurrency: number;
  /** Deflate workers the compression will run (the sample measures one core). */
  workers: number;
};

/** The plan with its mode and compression decided from this computer's measurements. */
export function chooseTransport(plan: JobPlan, o: ChooseOptions): { plan: JobPlan; choice: TransportChoice } {
  const rates = readLinkRates(o.dataDir);
  const input: TransportInput = {
    requestedMode: plan.requestedMode,
    setting: o.setting,
    files: plan.files,
    bytes: plan.bytes,
    zipSize: plan.zipSize,
    ratio: null,
    linkBytesPerS: rates.upload_bytes_per_s,
    bandwidthLimit: o.bandwidthLimit,
    deflateBytesPerS: rates.deflate_bytes_per_s ?? Number.POSITIVE_INFINITY,
    concurrency: o.concurrency,
  };
  const link = effectiveLinkRate(input.linkBytesPerS, input.bandwidthLimit);
  // Worth a sample only when compression could win: it cannot once deflating the study takes
  // longer than sending it raw (a LAN, loopback).
  const knownDeflate = rates.deflate_bytes_per_s;
  const worthSampling =
    plan.requestedMode !== 'files' &&
    o.setting !== 'never' &&
    (o.setting === 'always' || knownDeflate === null || knownDeflate > link);
  let sample: JobPlan['sample'];
  if (worthSampling) {
    // At the level the archive is written while sent: the exam's size is estimated from it too.
    const s = sampleCompressibility(plan.files, 6, STREAM_DEFLATE_LEVEL);
    if (s) {
      sample = { ratio: s.ratio, spread: s.spread };
      input.ratio = s.ratio;
      // One core measured on a few slices; the workers only add what idle cores there are. Halved
      // until a real compression has been measured: a short sample on a busy machine flatters the
      // sustained rate, and erring toward sending as before loses nothing.
      input.deflateBytesPerS = knownDeflate ?? s.deflateBytesPerS * usableWorkers(o.workers) * 0.5;
    }
  }
  if (input.deflateBytesPerS <= link) input.ratio = null;
  const choice = decideTransport(input);
  if (choice.mode === 'zip' && !choice.compress && plan.zipSize > MAX_ZIP_BYTES)
    throw new UploadError(
      'zip_too_large',
      `The ZIP would be ${formatBytes(plan.zipSize)}, over the service's limit of 1 GB (${choice.reason}). Use files mode instead.`,
    );
  return {
    plan: { ...plan, mode: choice.mode, compress: choice.compress, ...(choice.compress && sample ? { sample } : {}) },
    choice,
  };
}
