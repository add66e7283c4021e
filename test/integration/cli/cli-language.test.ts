// `scanbridge upload` speaks the terminal's language on every line: with LANG=es_CL.UTF-8 its
// steps, its progress, the engine's notices and the failure that stops it are all in Spanish (they
// were English but for the failure), and with an English LANG all in English. The real bin, spawned
// as a user runs it, on DCMTK files, against a real emulator answering 500 to every confirm.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { waitFor } from '../../support/harness/watch-harness';
import { cliBin, repoRoot } from '@support/repo-paths';

type Run = { code: number | null; stdout: string; stderr: string };

let emu: EmulatorProcess;
let tmp: string;

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  tmp = mkdtempSync(join(tmpdir(), 'sb-cli-language-'));
});
afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

function run(args: string[], lang: string, dataDir: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LANG: lang,
    LC_ALL: '',
    LC_MESSAGES: '',
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: dataDir,
  };
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Words that only an English line has (the Spanish ones say examen, archivos, servicio…). */
const ENGLISH = /\b(the|files?|exam|uploading|creating|sending|retrying|ready|service|left|of|again)\b/i;
/** Words that only a Spanish line has. */
const SPANISH = /\b(el|los|la|examen|archivos|servicio|subida|de)\b/i;

const lines = (text: string): string[] =>
  text
    .split(/[\r\n]+/)
    .map((l) => l.replaceAll('\x1b[K', '').trim())
    .filter((l) => l !== '');

describe('scanbridge upload in the terminal language', () => {
  it('says every step of a good upload in Spanish under LANG=es_CL.UTF-8', async () => {
    const ex = await writeCbctExport(join(tmp, 'es-ok'), { volumeSlices: 6, scoutSlices: 1 });
    const r = await run(['upload', ex.root, '--mode', 'files', '--limit-rate', '2M'], 'es_CL.UTF-8', join(tmp, 'd1'));
    expect(r.code, r.stderr).toBe(0);
    const said = lines(r.stderr);
    expect(said.some((l) => l.startsWith('Subiendo 7 archivos'))).toBe(true);
    expect(said).toContain('Creando el examen…');
    expect(said.some((l) => /^El examen \S+ está listo\.$/.test(l))).toBe(true);
    for (const l of said) expect(l, l).not.toMatch(ENGLISH);
  });

  it('says the notices and the failure in Spanish too, and all of it in English under an English LANG', async () => {
    await emu.control('POST', '/faults', { target: 'api', mode: 'error500', count: 1000, match: '/confirm' });
    try {
      const ex = await writeCbctExport(join(tmp, 'es-fail'), { volumeSlices: 4, scoutSlices: 1 });
      const es = await run(['upload', ex.root, '--mode', 'files'], 'es_CL.UTF-8', join(tmp, 'd2'));
      expect(es.code).not.toBe(0);
      const esLines = lines(es.stderr);
      expect(esLines.some((l) => l.startsWith('El servicio no respondió bien (server_error); reintentando.'))).toBe(
        true,
      );
      expect(esLines.at(-1)).toContain('El servicio tuvo un problema.');
      for (const l of esLines) expect(l, l).not.toMatch(ENGLISH);

      const ex2 = await writeCbctExport(join(tmp, 'en-fail'), { volumeSlices: 4, scoutSlices: 1 });
      const en = await run(['upload', ex2.root, '--mode', 'files'], 'en_US.UTF-8', join(tmp, 'd3'));
      expect(en.code).not.toBe(0);
      const enLines = lines(en.stderr);
      expect(enLines.some((l) => l.startsWith('The service did not answer properly (server_error); retrying.'))).toBe(
        true,
      );
      expect(enLines.at(-1)).toContain('The service failed');
      for (const l of enLines) expect(l, l).not.toMatch(SPANISH);
    } finally {
      await emu.control('DELETE', '/faults');
    }
  });
});

describe('scanbridge watch in the terminal language', () => {
  it('says its lines in Spanish, and that a copy of an uploaded study is that exam, no second one', async () => {
    const watched = join(tmp, 'watched');
    mkdirSync(watched);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LANG: 'es_CL.UTF-8',
      LC_ALL: '',
      LC_MESSAGES: '',
      SCANBRIDGE_API_URL: emu.info.base_url,
      SCANBRIDGE_API_KEY: emu.info.keys.ultra,
      SCANBRIDGE_DATA_DIR: join(tmp, 'd-watch'),
    };
    const child = spawn(process.execPath, [cliBin, 'watch', watched, '--settle', '0.5'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await waitFor(() => stderr.includes('Vigilando 1 carpeta'), 30_000, 'the watching line');
      const ex = await writeCbctExport(join(tmp, 'staging', 'ESTUDIO'), { volumeSlices: 3, scoutSlices: 1 });
      renameSync(ex.root, join(watched, 'ESTUDIO'));
      await waitFor(() => stdout.includes('"status":"ready"'), 60_000, 'the exam ready');
      const examId = (JSON.parse(stdout.trim().split('\n')[0] ?? '{}') as { exam_id: string }).exam_id;
      // A copy as staff make it, without the agent's claim: that file goes away once the upload
      // is done, and may do so while the copy lists the folder.
      cpSync(join(watched, 'ESTUDIO'), join(watched, 'COPIA'), {
        recursive: true,
        filter: (src) => !basename(src).startsWith('.scanbridge-claim-'),
      });
      await waitFor(() => stderr.includes('COPIA: ya se subió'), 60_000, 'the copy said');
      expect(stderr).toContain(`watched/COPIA: ya se subió como el examen ${examId}; no se crea un segundo examen.`);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    // The agent's log lines (time-stamped, for support) aside, every line is Spanish.
    const said = lines(stderr).filter((l) => !/^\d{4}-\d\d-\d\dT/.test(l));
    expect(said.at(-1)).toBe('Detenido.');
    for (const l of said) expect(l, l).not.toMatch(ENGLISH);
  });
});
