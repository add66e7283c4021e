// A separate process taking the upload lock, for tests of study-lock.ts across processes.
//   node --import tsx test/support/lock-holder.ts <dataDir> <startAtMs> <holdMs> <key>...
// Waits until <startAtMs> (so that several holders try at the same instant), tries once, prints
// one JSON line ({"acquired":true} or {"acquired":false,"pid":N}), holds for <holdMs>, then exits
// normally (which frees the lock) — or is killed by the test first.
import { acquireStudyLock } from '../../main/core/upload/journal/study-lock';

const [dataDir, startAt, holdMs, ...keys] = process.argv.slice(2);
if (!dataDir || !startAt || !holdMs || keys.length === 0)
  throw new Error('usage: lock-holder <dataDir> <startAtMs> <holdMs> <key>...');
const wait = Number(startAt) - Date.now();
if (wait > 0) await new Promise((r) => setTimeout(r, wait));
const outcome = await acquireStudyLock(dataDir, keys);
process.stdout.write(
  `${JSON.stringify(outcome.kind === 'acquired' ? { acquired: true } : { acquired: false, pid: outcome.holder.pid })}\n`,
);
await new Promise((r) => setTimeout(r, Number(holdMs)));
