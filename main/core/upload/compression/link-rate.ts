// What this computer has measured about its uplink and its CPU, kept between runs in
// `<data>/link-rate.json` (written atomically): the upload rate of recent transfers and the rate at
// which this machine deflates. The compression choice (compression-choice.ts) reads it; the engine
// feeds it after every transfer and every compression.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../../atomic-file';

export const LINK_RATE_FILE = 'link-rate.json';

const fileSchema = z.object({
  v: z.literal(1),
  /** Bytes per second on the wire, smoothed over recent transfers; null until measured. */
  upload_bytes_per_s: z.number().positive().nullable(),
  /** Bytes of study deflated per second with every worker busy; null until measured. */
  deflate_bytes_per_s: z.number().positive().nullable(),
  updated_at: z.number(),
});
export type LinkRates = z.infer<typeof fileSchema>;

/** Transfers shorter than this say more about latency than about the link: not counted. */
export const MIN_SAMPLE_BYTES = 4 * 1024 * 1024;
export const MIN_SAMPLE_SECONDS = 1;

const EMPTY: LinkRates = { v: 1, upload_bytes_per_s: null, deflate_bytes_per_s: null, updated_at: 0 };

export function readLinkRates(dataDir: string): LinkRates {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(readFileSync(join(dataDir, LINK_RATE_FILE), 'utf8')));
    return parsed.success ? parsed.data : { ...EMPTY };
  } catch {
    return { ...EMPTY };
  }
}

/**
 * Blends a new measurement into the old one: a big transfer moves the estimate more than a small
 * one, and the newest counts most (the link a clinic shares changes over the day).
 */
export function blendRate(old: number | null, sample: number, sampleBytes: number): number {
  if (old === null) return sample;
  const weight = 0.3 + 0.5 * Math.min(1, sampleBytes / (256 * 1024 * 1024));
  return old + weight * (sample - old);
}

function update(
  dataDir: string,
  key: 'upload_bytes_per_s' | 'deflate_bytes_per_s',
  bytes: number,
  seconds: number,
): void {
  if (bytes < MIN_SAMPLE_BYTES || seconds < MIN_SAMPLE_SECONDS) return;
  const rates = readLinkRates(dataDir);
  rates[key] = blendRate(rates[key], bytes / seconds, bytes);
  rates.updated_at = Date.now();
  try {
    writeFileAtomicSync(join(dataDir, LINK_RATE_FILE), `${JSON.stringify(rates)}\n`);
  } catch {
    // A measurement that cannot be kept costs only a less informed choice next time.
  }
}

/** A transfer put `bytes` on the wire in `seconds` of sending (not counting pauses). */
export function recordUploadRate(dataDir: string, bytes: number, seconds: number): void {
  update(dataDir, 'upload_bytes_per_s', bytes, seconds);
}

/** The study's `bytes` were deflated in `seconds` with every worker busy. */
export function recordDeflateRate(dataDir: string, bytes: number, seconds: number): void {
  update(dataDir, 'deflate_bytes_per_s', bytes, seconds);
}
