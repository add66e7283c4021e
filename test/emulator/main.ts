// Emulator entry point: `npm run -s emulator -- --port 0 --data <dir> [--time-scale f] [--url-ttl s] [--insecure-webhooks] [--tls]`
// (CONTRACTS.md §1). Prints one JSON line with the base URL, control URL and keys, then serves.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startEmulator } from './server';

function fail(message: string): never {
  process.stderr.write(`emulator: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    data: { type: 'string' },
    'time-scale': { type: 'string', default: '1' },
    'url-ttl': { type: 'string', default: '3600' },
    'insecure-webhooks': { type: 'boolean', default: false },
    tls: { type: 'boolean', default: false },
  },
  strict: true,
});

const port = Number(values.port);
const timeScale = Number(values['time-scale']);
const urlTtl = Number(values['url-ttl']);
if (!values.data) fail('--data <dir> is required');
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be an integer 0..65535');
if (!Number.isFinite(timeScale) || timeScale <= 0) fail('--time-scale must be a positive number');
if (!Number.isFinite(urlTtl) || urlTtl <= 0) fail('--url-ttl must be a positive number of seconds');

const emulator = await startEmulator({
  port,
  dataDir: resolve(values.data),
  timeScale,
  urlTtlSeconds: urlTtl,
  insecureWebhooks: values['insecure-webhooks'],
  tls: values.tls,
});
process.stdout.write(`${JSON.stringify(emulator.info)}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void emulator.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
