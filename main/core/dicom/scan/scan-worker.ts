// Worker thread of the scan pool: classifies the files it is sent, synchronously, and answers
// with the verdicts. Started by scan-pool.ts; see there for the protocol.
import { parentPort } from 'node:worker_threads';
import { probeFileSync } from './probe';

type ProbeRequest = { id: number; paths: string[] };

function isRequest(msg: unknown): msg is ProbeRequest {
  if (typeof msg !== 'object' || msg === null) return false;
  const m = msg as { id?: unknown; paths?: unknown };
  return typeof m.id === 'number' && Array.isArray(m.paths) && m.paths.every((p) => typeof p === 'string');
}

const port = parentPort;
port?.on('message', (msg: unknown) => {
  if (!isRequest(msg)) return;
  port.postMessage({ id: msg.id, probes: msg.paths.map(probeFileSync) });
});
// Loaded and listening: the pool starts sending work only now (until then it reads in-thread).
port?.postMessage({ ready: true });
