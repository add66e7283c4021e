// The deflate part of the uplink benchmark, alone and cheap enough for a shared machine: one
// core's zlib rate and ratio on the CBCT-like phantom, per level, and what each would make of the
// time to ready (compress on two workers, then send the archive) relative to sending the study raw.
// Levels are interleaved and the best of 12 rounds kept (the least disturbed one).
// Run with `npx tsx test/bench/deflate-levels.ts`; it prints its figures, and
// main/core/upload/README.md ("Codecs") says what was chosen from them.
import { constants, deflateRawSync } from 'node:zlib';
import { phantomSlice } from '../support/data/phantom';

const LEVELS = [1, 2, 3, 4, 6];
const ROUNDS = 12;
/** Links in bytes per second: 10, 40 and 100 Mbit/s. */
const LINKS: [string, number][] = [
  ['10 Mbit', 1.25e6],
  ['40 Mbit', 5e6],
  ['100 Mbit', 12.5e6],
];
const WORKERS = 2;

// 4 MiB of slices of 512 × 512, cut in the pool's 1 MiB chunks.
const data = Buffer.concat(Array.from({ length: 8 }, (_, z) => phantomSlice(512, z * 7, 'cbct')));
const chunks: Buffer[] = [];
for (let o = 0; o < data.length; o += 1 << 20) chunks.push(data.subarray(o, o + (1 << 20)));

const best = new Map<number, number>();
const deflated = new Map<number, number>();
for (let round = 0; round < ROUNDS; round++)
  for (const level of LEVELS) {
    const t = performance.now();
    let out = 0;
    for (const c of chunks) out += deflateRawSync(c, { level, finishFlush: constants.Z_SYNC_FLUSH }).length;
    best.set(level, Math.min(best.get(level) ?? Infinity, performance.now() - t));
    deflated.set(level, out);
  }
for (const level of LEVELS) {
  const rate = data.length / ((best.get(level) ?? 1) / 1000);
  const r = (deflated.get(level) ?? 0) / data.length;
  const model = LINKS.map(([name, link]) => `${name} ${(link / (WORKERS * rate) + r).toFixed(3)}`).join(', ');
  console.log(
    `level ${level}: ${(rate / 1e6).toFixed(1)} MB/s per core, ${(1 / r).toFixed(2)}× smaller; time to ready / raw: ${model}`,
  );
}
