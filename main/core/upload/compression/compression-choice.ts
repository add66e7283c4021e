// Whether to compress a study, and in which mode to send it: decided from measurements, never
// guessed. `decideTransport` is a pure function of the study's sizes, a measured compressibility
// sample, this computer's measured deflate rate and the link's measured upload rate, so tests can
// inject any of them. `chooseTransport` gathers those measurements for a plan (the sample is taken
// only when compression could pay at all). How the choice is made: main/core/upload/README.md.
import { availableParallelism, loadavg } from 'node:os';
import { chooseMode } from '../plan/auto-mode';
import {
  type Codec,
  codecFor,
  type DeflatePool,
  FAST_CODEC,
  sharedDeflatePool,
  STREAM_CODEC,
  STRONG_CODEC,
} from './deflate-pool';
import { type LinkRates, readLinkRates } from './link-rate';
import { MAX_ZIP_BYTES } from '../plan/limits';
import { formatBytes } from '../../format-bytes';
import type { JobPlan, RequestedMode } from '../plan';
import { UploadError } from '../ports/upload-errors';
import type { UploadMode } from '../ports';
import type { CompressSetting } from '../../../../preload/contract/vocabulary';
import { t, type Language } from '../../i18n';

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

/** Why the transport was chosen: a key and the figures the words quote. */
export type ChoiceWhy = {
  key:
    | 'files_mode'
    | 'off'
    | 'file_too_large'
    | 'always'
    | 'cannot_pay'
    | 'does_not_compress'
    | 'over_limit'
    | 'only_fits'
    | 'shortens'
    | 'no_shorter';
  ratio?: number;
  fromS?: number;
  toS?: number;
};

export type TransportEstimate = { files: number; zip: number; compressed: number | null };
export type TransportChoice = {
  mode: UploadMode;
  compress: boolean;
  /** Plain words for logs and the CLI. */
  reason: string;
  /** The reason as facts, for front ends that say it in their own language. */
  why: ChoiceWhy;
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
  const keep = (why: ChoiceWhy): TransportChoice => ({
    mode: base,
    compress: false,
    reason: choiceWords(why, 'en'),
    why,
    estimates,
  });
  const compressed = (why: ChoiceWhy): TransportChoice => ({
    mode: 'zip',
    compress: true,
    reason: choiceWords(why, 'en'),
    why,
    estimates,
  });
  if (i.requestedMode === 'files') return keep({ key: 'files_mode' });
  if (i.setting === 'never') return keep({ key: 'off' });
  const fitsZip = i.files.every((f) => f.size < 0xffffffff) && i.files.length <= 0xffff;
  if (!fitsZip) return keep({ key: 'file_too_large' });
  if (i.setting === 'always') return compressed({ key: 'always' });
  if (i.ratio === null || estimates.compressed === null) return keep({ key: 'cannot_pay' });
  if (i.ratio > MAX_USEFUL_RATIO) return keep({ key: 'does_not_compress', ratio: i.ratio });
  if (i.zipSize * i.ratio > MAX_ZIP_BYTES * 0.95) return keep({ key: 'over_limit' });
  if (base === 'zip' && i.zipSize > MAX_ZIP_BYTES) return compressed({ key: 'only_fits', ratio: i.ratio });
  const current = base === 'zip' ? estimates.zip : estimates.files;
  if (estimates.compressed <= current * (1 - MIN_GAIN) && current - estimates.compressed >= MIN_GAIN_SECONDS)
    return compressed({
      key: 'shortens',
      ratio: i.ratio,
      fromS: Math.round(current),
      toS: Math.round(estimates.compressed),
    });
  return keep({ key: 'no_shorter', fromS: Math.round(current) });
}

/** The choice's reason in `lang`, from its facts (the catalogue's `core.choice.*`). */
export function choiceWords(why: ChoiceWhy, lang: Language): string {
  const ratio = 1 / Math.max(why.ratio ?? 1, 1e-6);
  // English keeps a plain point ("2.3× smaller"); Spanish its decimal comma ("2,3× más pequeño").
  const shown =
    lang === 'es'
      ? new Intl.NumberFormat('es-CL', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ratio)
      : ratio.toFixed(1);
  return t(lang, `core.choice.${why.key}`, {
    smaller: t(lang, 'core.choice.smaller', { ratio: shown }),
    fromS: why.fromS ?? 0,
    toS: why.toS ?? 0,
  });
}

/**
 * `ratio`: deflated / raw of the sample; `spread`: how far that ratio may be off for the whole
 * study, relative to it (the standard error of the slices' ratios over their mean).
 */
export type Sample = { ratio: number; deflateBytesPerS: number; spread: number };

/** Slices of a study the samples deflate: `count` spread evenly over it. */
function samplePicks<F extends { size: number }>(files: readonly F[], count: number): F[] {
  const picks: F[] = [];
  for (let k = 0; k < count && k < files.length; k++) {
    const f = files[Math.floor(((k + 0.5) * files.length) / count)];
    if (f && f.size > 0 && !picks.includes(f)) picks.push(f);
  }
  return picks;
}

/** Bytes of each slice the plain sample deflates: a whole 512 × 512 slice, all but its header. */
const PLAIN_SAMPLE_BYTES = 512 * 1024;

/**
 * Deflates a few slices spread over the study on the pool's workers (all posted at once): their
 * ratio, and how fast one core deflated them (each task's own time on its worker). A slice that
 * cannot be read is left out; null when none could be.
 */
export async function sampleCompressibility(
  files: readonly { path: string; size: number }[],
  pool: DeflatePool,
  maxFiles = 6,
  level = FAST_CODEC.level,
): Promise<Sample | null> {
  const codec: Codec = { kind: 'zlib', level };
  const runs = samplePicks(files, maxFiles).map((f) =>
    pool
      .run({ path: f.path, offset: 0, length: Math.min(f.size, PLAIN_SAMPLE_BYTES), last: true }, codec)
      .catch(() => null),
  );
  let raw = 0;
  let packed = 0;
  let seconds = 0;
  const ratios: number[] = [];
  for (const r of await Promise.all(runs)) {
    if (!r || r.raw.length === 0) continue;
    seconds += r.ms / 1000;
    packed += r.deflated.length;
    raw += r.raw.length;
    ratios.push(r.deflated.length / r.raw.length);
  }
  if (raw === 0) return null;
  const ratio = packed / raw;
  return { ratio, deflateBytesPerS: raw / Math.max(seconds, 1e-3), spread: relativeStandardError(ratios) };
}

/** The strong codec against the plain one (zlib level 6) on a few slices. */
export type StrongSample = {
  /** Strong / plain deflated size. */
  factor: number;
  /** How far `factor` may be off, relative to it. */
  spread: number;
  /** One core's strong rate (bytes/s). */
  bytesPerS: number;
};

/** Bytes of each slice the strong sample deflates, both ways (the strong codec is slow). */
const STRONG_SAMPLE_BYTES = 256 * 1024;

/**
 * Deflates the heads of two slices spread over the study both ways on the pool's workers (the
 * tasks are posted at once, before the plain sample's); null when libdeflate is unavailable there
 * or the slices cannot be read.
 */
export function sampleStrong(
  files: readonly { path: string; size: number }[],
  pool: DeflatePool,
): Promise<StrongSample | null> {
  const tasks = samplePicks(
    files.filter((f) => codecFor(f.size, STRONG_CODEC).kind === 'whole'),
    2,
  ).map((f) => ({ path: f.path, offset: 0, length: Math.min(f.size, STRONG_SAMPLE_BYTES), last: true }));
  // The strong tasks first, the longest: one per worker, and the short ones share out after them.
  const strongRuns = tasks.map((t) => pool.run(t, STRONG_CODEC));
  const plainRuns = tasks.map((t) => pool.run(t, STREAM_CODEC));
  const runs = tasks.map(async (task, i) => {
    const [plain, strong] = await Promise.all([plainRuns[i], strongRuns[i]]);
    if (!plain || !strong?.whole) throw new Error('libdeflate is unavailable');
    return { factor: strong.deflated.length / plain.deflated.length, raw: task.length, ms: strong.ms };
  });
  return Promise.all(runs).then(
    (done) => {
      if (done.length < 2) return null;
      const raw = done.reduce((a, d) => a + d.raw, 0);
      const ms = done.reduce((a, d) => a + d.ms, 0);
      const factors = done.map((d) => d.factor);
      return {
        factor: factors.reduce((a, b) => a + b, 0) / factors.length,
        spread: relativeStandardError(factors),
        bytesPerS: raw / Math.max(ms / 1000, 1e-3),
      };
    },
    () => null,
  );
}

/** The plain sample with, when libdeflate runs, the strong one: what the archive's estimate is made of. */
export type StudySample = { plain: Sample; strong: StrongSample | null };

/**
 * Both samples of `files` on the shared pool's workers, every task posted at once (the strong
 * sample's, when `strong`, first): while they run the main thread only waits (in the app, Electron's
 * main process stays free). Null when nothing could be read.
 */
export async function sampleStudy(
  files: readonly { path: string; size: number }[],
  strong: boolean,
): Promise<StudySample | null> {
  const pool = sharedDeflatePool();
  const strongSample = strong ? sampleStrong(files, pool) : Promise.resolve(null);
  const [plain, s] = await Promise.all([sampleCompressibility(files, pool, 6, STREAM_CODEC.level), strongSample]);
  return plain ? { plain, strong: s } : null;
}

/**
 * The sample for an archive whose files are deflated strong at `share` (0–1) and plain otherwise:
 * its ratio (deflated / raw), how far that may be off (relative), and one core's rate.
 */
export function atShare(s: StudySample, share: number): Sample {
  const { plain, strong } = s;
  if (!strong) return plain;
  const mix = 1 - share + share * strong.factor;
  return {
    ratio: plain.ratio * mix,
    spread: Math.sqrt(plain.spread ** 2 + ((share * strong.factor * strong.spread) / mix) ** 2),
    deflateBytesPerS: 1 / (share / strong.bytesPerS + (1 - share) / plain.deflateBytesPerS),
  };
}

/**
 * Until the link is measured, the strong share assumes the fast end of the region's clinic
 * uplinks, not the default the time estimates use: a share too large for the real link makes the
 * writer hold the send back, which costs more time than the extra shrinking saves, while one too
 * small only leaves a little of the archive unshrunk.
 */
export const UNMEASURED_LINK_FOR_SHARE = 50e6 / 8;
/** Share of each worker's core that deflating gets while the archive is sent (the rest: the send, the rest of the computer). */
const WRITER_CORE_SHARE = 0.75;
/**
 * The writer must outpace the link by this much, so that it never holds the send back. The link
 * learnt from a streamed send errs low (it is timed from the moment the writer finished, and bytes
 * still in the socket's buffers then count after it), which the margin covers: a smaller margin
 * let the strong share grow past what the real link allowed, and uploads waited for the writer
 * (test/bench/uplink.ts; results in test/bench/RESULTS.md, "Uplink: lossless compression").
 */
const WRITER_HEADROOM = 1.25;

/**
 * The largest share of the files (in steps of 5 %) to deflate strong such that the workers still
 * deflate faster than the link takes the archive (the link as measured, or a fast clinic uplink
 * until it is, capped by the bandwidth limit). The rates are the sample's, measured on this
 * computer as busy as it is now, so a loaded computer gets a smaller share.
 */
export function strongShare(
  s: StudySample,
  linkBytesPerS: number | null,
  bandwidthLimit: number | null,
  workers: number,
): number {
  if (!s.strong) return 0;
  const link = effectiveLinkRate(linkBytesPerS ?? UNMEASURED_LINK_FOR_SHARE, bandwidthLimit);
  const cores = workers * WRITER_CORE_SHARE;
  for (let steps = 20; steps > 0; steps--) {
    const share = steps / 20;
    const m = atShare(s, share);
    if (cores * m.deflateBytesPerS >= (WRITER_HEADROOM * link) / m.ratio) return share;
  }
  return 0;
}

/** Standard error of the mean of `xs`, relative to the mean (one value: 0.25, an honest unknown). */
function relativeStandardError(xs: readonly number[]): number {
  if (xs.length < 2) return 0.25;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return mean > 0 ? Math.sqrt(variance / xs.length) / mean : 0.25;
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

/**
 * Whether a study may be compressed, so that its sample is worth taking (and the deflate workers
 * worth starting): not when compression is off or files mode is asked for, nor once deflating is
 * known to be slower than sending raw (a LAN, loopback).
 */
export function worthSampling(
  requestedMode: RequestedMode,
  setting: CompressSetting,
  rates: LinkRates,
  bandwidthLimit: number | null,
): boolean {
  if (requestedMode === 'files' || setting === 'never') return false;
  if (setting === 'always') return true;
  const link = effectiveLinkRate(rates.upload_bytes_per_s, bandwidthLimit);
  return rates.deflate_bytes_per_s === null || rates.deflate_bytes_per_s > link;
}

/** The plan with its mode and compression decided from this computer's measurements. */
export async function chooseTransport(
  plan: JobPlan,
  o: ChooseOptions,
): Promise<{ plan: JobPlan; choice: TransportChoice }> {
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
  const knownDeflate = rates.deflate_bytes_per_s;
  let sample: JobPlan['sample'];
  if (worthSampling(plan.requestedMode, o.setting, rates, o.bandwidthLimit)) {
    // With the codecs the archive is written with while sent: the exam's size is estimated from it too.
    const s = await sampleStudy(plan.files, true);
    if (s) {
      // The decision weighs the archive at that share, and the plain codec's rate: the share is
      // chosen so that the writer still outpaces the link, so the strong codec never sets the pace.
      const { plain, strong } = s;
      const share = strongShare(s, input.linkBytesPerS, input.bandwidthLimit, o.workers);
      const m = atShare(s, share);
      sample = { ratio: m.ratio, spread: m.spread, ...(strong ? { strong: share } : {}) };
      input.ratio = m.ratio;
      // One core measured on a few slices; the workers only add what idle cores there are. Halved
      // until a real compression has been measured: a short sample on a busy machine flatters the
      // sustained rate, and erring toward sending as before loses nothing.
      input.deflateBytesPerS = knownDeflate ?? plain.deflateBytesPerS * usableWorkers(o.workers) * 0.5;
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
