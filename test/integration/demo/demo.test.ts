// `npm run demo` on a machine without DCMTK: the app opens already connected to the emulator,
// with its live and sandbox keys, and the sample exports the demo writes arrive in the Inbox.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxItem, KeysStatus } from '@preload/contract';
import { repoRoot } from '@support/repo-paths';

const root = repoRoot;
let scratch: string;
let demo: ChildProcess | undefined;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sb-demo-run-'));
});
afterAll(() => {
  if (demo && demo.exitCode === null && demo.signalCode === null) demo.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('npm run demo', () => {
  it('needs no DCMTK, opens connected with both keys, and studies arrive in the Inbox', async () => {
    // PATH with Node alone: no dump2dcm, dcmmkdir or any other system tool.
    const bin = join(scratch, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    // The demo's own folders go under this TMPDIR, so the test sees they are removed at the end.
    const demoTmp = join(scratch, 'tmp');
    mkdirSync(demoTmp);
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/demo/index.ts', '--browser'], {
      cwd: root,
      env: { ...process.env, PATH: bin, TMPDIR: demoTmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    demo = child;
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    let out = '';
    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL from the demo within 60 s:\n${out}\n${err}`)), 60_000);
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => {
        out += `${l}\n`;
        const m = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/.exec(l);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(new URL(m[1]));
        }
      });
      child.once('exit', (code) => reject(new Error(`demo exited with ${code}:\n${out}\n${err}`)));
    });
    const token = url.searchParams.get('token') ?? '';
    const rpc = async <T>(name: string, args: object = {}): Promise<T> => {
      const res = await fetch(new URL(`/rpc/${name}`, url), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
      });
      const body = (await res.json()) as { result?: T; error?: unknown };
      if (!res.ok) throw new Error(`${name}: ${JSON.stringify(body.error)}`);
      return body.result as T;
    };

    // Connected from the start: no key to paste.
    const keys = await rpc<KeysStatus>('keys:status');
    expect(keys).toMatchObject({ live: { present: true }, sandbox: { present: true }, active: 'live' });

    // The Exams screen is not empty on first launch: ready exams of several types are there already.
    const page = await rpc<{ exams: { id: string; exam_type: string; status: string }[] }>('exams:list', {
      limit: 20,
      offset: 0,
    });
    expect(page.exams.filter((e) => e.status === 'ready').length).toBeGreaterThanOrEqual(3);
    expect(new Set(page.exams.map((e) => e.exam_type))).toEqual(new Set(['cbct', 'radiografia', 'atm']));

    // The scanner writes a CBCT, a panoramic and four intra-oral images: all three reach the Inbox.
    let items: InboxItem[] = [];
    for (const until = Date.now() + 90_000; items.length < 3 && Date.now() < until; await sleep(250))
      items = await rpc<InboxItem[]>('inbox:list');
    const seen = items
      .map((i) => ({ modality: i.modality, files: i.files, patient: i.fields.patient_name }))
      .sort((a, b) => a.modality.localeCompare(b.modality));
    expect(seen, `${out}\n${err}`).toEqual([
      { modality: 'CT', files: 300, patient: 'JUAN CARLOS MUÑOZ' },
      { modality: 'IO', files: 4, patient: 'ÁLVARO NÚÑEZ' },
      { modality: 'PX', files: 1, patient: 'MARÍA JOSÉ PÉREZ' },
    ]);

    // The patient display is reachable from the operator's panel: opening it gives the address of
    // the patient page on the same bridge, and that page answers.
    const exams = page.exams;
    let session: { patient_url: string | null } | null = null;
    for (const e of exams.filter((x) => x.status === 'ready')) {
      const started = await rpc('consent:start', { exam_id: e.id, locale: 'es' }).then(
        () => true,
        () => false,
      );
      if (!started) continue;
      session = await rpc<{ patient_url: string | null }>('consent:display-open', { exam_id: e.id, signer_name: '' });
      break;
    }
    expect(session?.patient_url).toMatch(new RegExp(`^${url.origin}/`));
    expect((await fetch(session?.patient_url ?? '')).status).toBe(200);

    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    // Its folders are gone (tsx-<uid> is tsx's compile cache, shared by every tsx run).
    expect(readdirSync(demoTmp).filter((n) => !n.startsWith('tsx-'))).toEqual([]);
  }, 150_000);
});
