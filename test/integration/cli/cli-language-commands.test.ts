// Beside cli-language.test.ts (upload and watch): `scanbridge receive` says its own lines in the
// terminal's language (start, each association, the upload of a received study, a study sent again,
// the stop on Ctrl+C), and in an English terminal keeps its English lines word for word. The real
// bin, spawned as a user runs it, DCMTK's storescu as the scanner and a real emulator as the service.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorProcess } from '@support/emulator/emulator';
import { smallSeries, waitFor } from '@support/harness/watch-harness';
import { openSettingsStore } from '@main/core/settings/store';
import { cliBin, repoRoot } from '@support/repo-paths';
import { listeningPort, type ReceiveCli, startReceive, storescu } from '@support/harness/receive-harness';

let emu: EmulatorProcess;
let tmp: string;
const running: ReceiveCli[] = [];

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  tmp = mkdtempSync(join(tmpdir(), 'sb-cli-language-commands-'));
});
afterAll(async () => {
  for (const c of running) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

/** Words that only an English line has (the Spanish ones say examen, archivos, detenido…). */
const ENGLISH =
  /\b(the|files?|exam|uploading|uploaded|already|received|listening|press|stop|stopping|stopped|after|at|of|must|usage|options?|default|again|give|exactly|folder|unknown|option)\b/i;
/** Words that only a Spanish line has. */
const SPANISH = /\b(el|los|la|examen|archivos|servicio|subida|de|en|tras|puerto|pulse|detenido|deteniendo)\b/i;

const lines = (text: string): string[] =>
  text
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
/** The command log's own lines (time-stamped, for support) aside. */
const said = (stderr: string): string[] => lines(stderr).filter((l) => !/^\d{4}-\d\d-\d\dT/.test(l));

type Run = { code: number | null; stdout: string; stderr: string };

/** One run of the real bin in `lang`, against the emulator, with a data folder of its own. */
function run(args: string[], lang: string, extra: NodeJS.ProcessEnv = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LANG: lang,
    LC_ALL: '',
    LC_MESSAGES: '',
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: mkdtempSync(join(tmp, 'data-')),
    ...extra,
  };
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

type Ready = { event: string; exam_id: string };

/** receive in `lang`: one study sent, then sent again, then Ctrl+C; its stderr lines. */
async function receiveSession(lang: string, name: string): Promise<{ stderr: string[]; examId: string }> {
  const cli = startReceive(['--port', '0', '--quiet', '1', '--json'], {
    LANG: lang,
    LC_ALL: '',
    LC_MESSAGES: '',
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: join(tmp, `data-${name}`),
  });
  running.push(cli);
  await waitFor(() => listeningPort(cli) !== null || cli.child.exitCode !== null, 30_000, `listening: ${cli.stderr()}`);
  const port = listeningPort(cli);
  if (port === null) throw new Error(`receive did not start: ${cli.stderr()}`);
  const s = await smallSeries(join(tmp, `series-${name}`), 3);
  expect((await storescu(port, [s.dir])).code).toBe(0);
  await waitFor(() => cli.stdout().length >= 2, 60_000, `the exam ready: ${cli.stderr()}`);
  const examId = (JSON.parse(cli.stdout()[1] ?? '{}') as Ready).exam_id;
  expect((await storescu(port, [s.dir])).code).toBe(0);
  await waitFor(() => cli.stderr().includes(examId + ';'), 60_000, `the study sent again: ${cli.stderr()}`);
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
  return { stderr: said(cli.stderr()), examId };
}

describe('scanbridge receive in the terminal language', () => {
  it('says every line in Spanish under LANG=es_CL.UTF-8', async () => {
    const { stderr, examId } = await receiveSession('es_CL.UTF-8', 'es');
    expect(stderr[0]).toMatch(
      /^Escuchando en el puerto \d+ con el título AE SCANBRIDGE\. Pulse Ctrl\+C para detener\.$/,
    );
    expect(stderr).toContain('STORESCU en 127.0.0.1: asociación terminada tras 3 objeto(s).');
    expect(stderr.some((l) => l.startsWith('estudio recibido completo: subiendo 3 archivo(s)'))).toBe(true);
    expect(stderr.some((l) => l.startsWith(`subido como el examen ${examId} (3 archivos,`))).toBe(true);
    expect(stderr).toContain(`el estudio recibido ya se subió como el examen ${examId}; no se crea un segundo examen.`);
    expect(stderr.slice(-2)).toEqual(['Deteniendo…', 'Detenido.']);
    for (const l of stderr) expect(l, l).not.toMatch(ENGLISH);
  });

  it('keeps its English lines under LANG=en_US.UTF-8', async () => {
    const { stderr, examId } = await receiveSession('en_US.UTF-8', 'en');
    expect(stderr[0]).toMatch(/^Listening on port \d+ as AE title SCANBRIDGE\. Press Ctrl\+C to stop\.$/);
    expect(stderr).toContain('STORESCU at 127.0.0.1: association released after 3 object(s).');
    expect(stderr.some((l) => l.startsWith('received study complete: uploading 3 file(s)'))).toBe(true);
    expect(stderr.some((l) => l.startsWith(`uploaded as exam ${examId} (3 files,`))).toBe(true);
    expect(stderr).toContain(`received study already uploaded as exam ${examId}; no second exam.`);
    expect(stderr.slice(-2)).toEqual(['Stopping…', 'Stopped.']);
    for (const l of stderr) expect(l, l).not.toMatch(SPANISH);
  });
});

describe('handout and serve failures in the terminal language', () => {
  it('says an exam not found in Spanish or in English', async () => {
    const es = await run(['handout', 'ex_missing', '--out', join(tmp, 'x.pdf')], 'es_CL.UTF-8');
    expect(es.code).toBe(1);
    expect(said(es.stderr)).toEqual(['scanbridge handout: el examen ex_missing no se encontró en esta cuenta']);
    const en = await run(['handout', 'ex_missing', '--out', join(tmp, 'x.pdf')], 'en_US.UTF-8');
    expect(en.code).toBe(1);
    expect(said(en.stderr)).toEqual(['scanbridge handout: exam ex_missing was not found on this account']);
  });

  it('says a window not built in Spanish', async () => {
    const empty = mkdtempSync(join(tmp, 'no-window-'));
    const cli = spawn(process.execPath, [cliBin, 'serve', '--port', '0', '--renderer', empty], {
      cwd: repoRoot,
      env: {
        ...process.env,
        LANG: 'es_CL.UTF-8',
        LC_ALL: '',
        LC_MESSAGES: '',
        SCANBRIDGE_API_URL: emu.info.base_url,
        SCANBRIDGE_DATA_DIR: join(tmp, 'data-serve'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    cli.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    cli.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((r) => cli.once('exit', r));
    await waitFor(() => out.includes('"url"') || cli.exitCode !== null, 30_000, `serve started: ${err}`);
    cli.kill('SIGTERM');
    expect(await exited).toBe(0);
    const own = said(err).filter((l) => l.startsWith('scanbridge serve:'));
    expect(own).toEqual([
      `scanbridge serve: no hay una ventana compilada en ${empty}: ejecute \`npm run build\` primero (el contrato se sirve de todos modos)`,
    ]);
  });
});

describe("the service-facing commands' problems in the terminal language", () => {
  it('says a refused key, and a folder that is not there, in Spanish or in English', async () => {
    const refusedEs = await run(['whoami'], 'es_CL.UTF-8', { SCANBRIDGE_API_KEY: 'cbct_live_nope' });
    expect(refusedEs.code).toBe(1);
    expect(said(refusedEs.stderr)).toEqual([
      'scanbridge whoami: El servicio no aceptó la clave de API. Revísela en Ajustes.',
    ]);
    const refusedEn = await run(['whoami'], 'en_US.UTF-8', { SCANBRIDGE_API_KEY: 'cbct_live_nope' });
    expect(said(refusedEn.stderr)).toEqual(['scanbridge whoami: The API key was rejected. Check it in Settings.']);

    const missing = join(tmp, 'no-such-folder');
    const es = await run(['upload', missing], 'es_CL.UTF-8');
    expect(es.code).toBe(1);
    expect(said(es.stderr)).toEqual([`scanbridge upload: no se encontró la carpeta: ${missing}`]);
    const en = await run(['upload', missing], 'en_US.UTF-8');
    expect(said(en.stderr)).toEqual([`scanbridge upload: folder not found: ${missing}`]);
    const scanEs = await run(['scan', missing], 'es_CL.UTF-8');
    expect(scanEs.code).toBe(1);
    expect(said(scanEs.stderr)).toEqual([`scanbridge scan: no se encontró la carpeta: ${missing}`]);
    // No key in the environment and no desktop session: the keychain cannot be reached.
    const noBus = {
      SCANBRIDGE_API_KEY: '',
      SCANBRIDGE_CONFIG_DIR: join(tmp, 'config-no-bus'),
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(tmp, 'no-bus')}`,
    };
    const keychainEs = await run(['whoami'], 'es_CL.UTF-8', noBus);
    expect(keychainEs.code).toBe(1);
    expect(said(keychainEs.stderr)).toEqual([
      'scanbridge whoami: No se puede acceder al llavero del sistema: no hay una sesión de escritorio (D-Bus). Inicie una sesión de escritorio. O defina SCANBRIDGE_API_KEY para esta sesión.',
    ]);
    const keychainEn = await run(['whoami'], 'en_US.UTF-8', noBus);
    expect(said(keychainEn.stderr)[0]).toMatch(/^scanbridge whoami: The system keychain cannot be reached/);

    // A proxy saved in Settings whose login the keychain cannot give: a note, then the answer.
    const withProxy = { ...noBus, SCANBRIDGE_CONFIG_DIR: join(tmp, 'config-proxy') };
    openSettingsStore({ env: withProxy }).update({ network: { proxy_url: 'http://127.0.0.1:9', ca_file: null } });
    const noteEs = await run(['whoami'], 'es_CL.UTF-8', withProxy);
    expect(said(noteEs.stderr)[0]).toMatch(
      /^scanbridge whoami: aviso: no se pudo leer del llavero el usuario del proxy \(No se puede acceder al llavero/,
    );
    for (const l of said(noteEs.stderr)) expect(l, l).not.toMatch(ENGLISH);
    const noteEn = await run(['whoami'], 'en_US.UTF-8', withProxy);
    expect(said(noteEn.stderr)[0]).toMatch(
      /^scanbridge whoami: note: the proxy's login could not be read from the keychain \(The system keychain/,
    );
    const scanEn = await run(['scan', missing], 'en_US.UTF-8');
    expect(said(scanEn.stderr)).toEqual([`scanbridge scan: folder not found: ${missing}`]);
  });
});

/** A usage error of each command, with the English line it printed before it spoke Spanish. */
const USAGE_ERRORS: { args: string[]; en: string }[] = [
  { args: ['upload'], en: 'scanbridge upload: give exactly one folder; see --help' },
  {
    args: ['upload', 'x', '--limit-rate', 'fast'],
    en: 'scanbridge upload: --limit-rate must look like 800000, 500k or 2M',
  },
  { args: ['watch'], en: 'scanbridge watch: give at least one folder to watch; see --help' },
  { args: ['receive', '--port', 'x'], en: 'scanbridge receive: --port must be a whole number from 0 to 65535' },
  {
    args: ['handout', 'ex_1', '--out', 'x.pdf', '--lang', 'pt'],
    en: 'scanbridge handout: --lang must be one of es, en',
  },
  { args: ['support-bundle', '--days', '3'], en: 'scanbridge support-bundle: --out <file.zip> is required' },
  { args: ['scan', 'a', 'b'], en: 'scanbridge scan: one folder at a time; usage: scanbridge scan <dir> [--json]' },
  { args: ['serve', '--port', '70000'], en: 'scanbridge serve: --port must be an integer from 0 to 65535' },
  { args: ['whoami', '--verbose'], en: "scanbridge whoami: Unknown option '--verbose'" },
  {
    args: ['doctor', 'now'],
    en: "scanbridge doctor: Unexpected argument 'now'. This command does not take positional arguments",
  },
  { args: ['handout', 'ex_1', '--out'], en: "scanbridge handout: Option '--out <value>' argument missing" },
];

describe('usage errors in the terminal language', () => {
  it('says each in Spanish under LANG=es_CL.UTF-8, and keeps the English line under en_US', async () => {
    for (const { args, en } of USAGE_ERRORS) {
      const es = await run(args, 'es_CL.UTF-8');
      expect(es.code, args.join(' ')).toBe(2);
      const line = said(es.stderr);
      expect(line, args.join(' ')).toHaveLength(1);
      expect(line[0]).toMatch(new RegExp(`^scanbridge ${args[0]}: `));
      expect(line[0]).not.toMatch(ENGLISH);
      const english = await run(args, 'en_US.UTF-8');
      expect(english.code).toBe(2);
      expect(said(english.stderr)).toEqual([en]);
    }
  });
});

const WITH_HELP = ['upload', 'watch', 'receive', 'serve', 'handout', 'whoami', 'doctor', 'support-bundle'];

describe('--help in the terminal language', () => {
  it("prints each command's help, and the list of commands, in Spanish under es_CL and in English under en_US", async () => {
    for (const command of WITH_HELP) {
      const es = await run([command, '--help'], 'es_CL.UTF-8');
      expect(es.code, command).toBe(0);
      expect(es.stdout.startsWith(`Uso: scanbridge ${command}`), es.stdout).toBe(true);
      // Option names and values, variables and JSON keys are the same in both languages; the prose
      // around them is Spanish.
      const prose = es.stdout
        .replace(/--[a-z-]+|\b[A-Z_]{3,}\b|\{[^}]*\}|"[a-z_]+"|\b[a-z]+(\|[a-z]+)+\b/g, '')
        .replace(/^( {2}--\S+ +)?(files|zip|auto|always|never)\b/gm, '')
        .replace(/\b(files \(|zip \(|\), always)/g, '');
      for (const l of lines(prose)) expect(l, `${command}: ${l}`).not.toMatch(ENGLISH);
      const en = await run([command, '--help'], 'en_US.UTF-8');
      expect(en.code).toBe(0);
      expect(en.stdout.startsWith(`Usage: scanbridge ${command}`)).toBe(true);
      for (const l of lines(en.stdout.replace(/\b[a-z]+(\|[a-z]+)+\b/g, '')))
        expect(l, `${command}: ${l}`).not.toMatch(/\b(el|los|la|examen|archivos|de|en)\b/i);
    }
    const list = await run([], 'es_CL.UTF-8');
    expect(list.code).toBe(0);
    expect(list.stderr).toMatch(/^Uso: scanbridge <comando> \[opciones\]\n\nComandos:\n {2}scan\n/);
    expect((await run([], 'en_US.UTF-8')).stderr).toMatch(/^Usage: scanbridge <command> \[options\]\n\nCommands:\n/);
  });
});

describe('whoami in the terminal language', () => {
  it('reports the account in Spanish under es_CL, and in the same English under en_US', async () => {
    const es = await run(['whoami'], 'es_CL.UTF-8');
    expect(es.code, es.stderr).toBe(0);
    const rows = lines(es.stdout);
    expect(rows.map((r) => r.split(' ')[0])).toEqual([
      'Cuenta',
      'Clave',
      'Servicio',
      'Plan',
      'Permisos',
      'Almacenamiento',
      'Exámenes',
      'Solicitudes',
    ]);
    expect(es.stdout).toMatch(/^Clave\s+real; desde SCANBRIDGE_API_KEY$/m);
    expect(es.stdout).toMatch(/^Solicitudes\s+quedan \d+ de \d+ esta hora/m);
    // The account's e-mail, address and scopes aside, the words are Spanish.
    for (const r of rows.filter((r) => !/^(Cuenta|Servicio|Permisos)\s/.test(r))) expect(r, r).not.toMatch(ENGLISH);
    const en = await run(['whoami'], 'en_US.UTF-8');
    expect(en.stdout).toMatch(/^Key\s+live; from SCANBRIDGE_API_KEY$/m);
    expect(en.stdout).toMatch(/^Rate limit\s+\d+ of \d+ requests left this hour/m);
  });
});

describe('scan in the terminal language', () => {
  it('summarises a folder in Spanish under es_CL, and in the same English under en_US', async () => {
    const s = await smallSeries(join(tmp, 'scan-me', 'serie'), 2);
    const root = join(tmp, 'scan-me');
    const es = await run(['scan', root], 'es_CL.UTF-8');
    expect(es.code, es.stderr).toBe(0);
    const rows = lines(es.stdout);
    expect(rows[0]).toMatch(/: 1 estudio, 2 archivos, \d+(,\d+)? KB$/);
    expect(rows.at(-1)).toBe('Omitidos 0');
    expect(es.stdout).toContain(`1 serie en ${s.dir}`);
    // Paths and the patient's name aside, the words are Spanish.
    for (const r of lines(es.stdout.replaceAll(tmp, ''))) expect(r, r).not.toMatch(ENGLISH);
    const en = await run(['scan', root], 'en_US.UTF-8');
    expect(lines(en.stdout)[0]).toMatch(/: 1 study, 2 files, \d+(\.\d+)? KB$/);
    expect(en.stdout).toContain(`1 series in ${s.dir}`);
    expect(lines(en.stdout).at(-1)).toBe('Skipped 0');
  });
});
