// Child process of the upload benchmark: uploads every file of a folder and reports its own peak
// RSS, so the figure is the upload's alone (not the benchmark's or the emulator's).
//   <dir> files|zip          the engine, in that mode
//   <dir> files --raw        plain node:http PUTs of the same files (6 at a time), for comparison
//   <dir> files --idle       only load the same modules: the floor of the process
// Env: BASE_URL, API_KEY, DATA_DIR.
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createApiClient } from '../../main/core/api';
import { examsPortFromClient } from '../../main/core/upload/ports/api-port';
import { UploadJob } from '../../main/core/upload/job/engine';
import { planUpload } from '../../main/core/upload/plan/plan';

const [dir = '', mode = 'files', flag] = process.argv.slice(2);
const peakMb = (): number => process.resourceUsage().maxRSS / 1024;
const client = createApiClient({ baseUrl: process.env['BASE_URL'] ?? '', apiKey: process.env['API_KEY'] ?? '' });
const files = readdirSync(dir).map((name) => ({ path: join(dir, name), name }));
const t0 = performance.now();

if (flag === '--idle') {
  process.stdout.write(`${JSON.stringify({ peak_rss_mb: peakMb() })}\n`);
} else if (flag === '--raw') {
  const sized = files.map((f) => ({ ...f, size: statSync(f.path).size }));
  const created = await client.exams.create({
    name: 'rss raw',
    upload_mode: 'files',
    files: sized.map((f) => ({ name: f.name, size: f.size })),
  });
  const urls = (created.upload_urls ?? []).map((u) => u.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 6 });
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let i = next++; i < sized.length; i = next++) {
        await new Promise<void>((resolve, reject) => {
          const req = request(
            urls[i] ?? '',
            { method: 'PUT', agent, headers: { 'Content-Length': sized[i]?.size ?? 0 } },
            (res) => {
              res.resume();
              res.on('end', () => resolve());
            },
          );
          req.on('error', reject);
          createReadStream(sized[i]?.path ?? '').pipe(req);
        });
      }
    }),
  );
  agent.destroy();
  process.stdout.write(`${JSON.stringify({ peak_rss_mb: peakMb(), ms: performance.now() - t0 })}\n`);
} else {
  const plan = await planUpload({
    root: dir,
    fields: { name: `rss ${mode}` },
    files,
    mode: mode === 'zip' ? 'zip' : 'files',
  });
  const job = UploadJob.create(plan, { port: examsPortFromClient(client), dataDir: process.env['DATA_DIR'] ?? '' });
  const result = await job.run();
  process.stdout.write(
    `${JSON.stringify({ peak_rss_mb: peakMb(), ms: performance.now() - t0, files: result.files })}\n`,
  );
}
