// `scanbridge handout`: the patient's sheet of a ready exam, read back as a patient's phone and eyes
// would: the text by poppler's pdftotext, the QR code by zbarimg on a 150 dpi render (pdftoppm).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '@support/emulator/emulator';
import { filesBody, readyExam } from '@support/emulator/emulator-exams';
import { cliBin, repoRoot } from '@support/repo-paths';

type Run = { code: number | null; stdout: string; stderr: string };

let emu: EmulatorProcess;
let tmp: string;

function run(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  const env = {
    ...process.env,
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.pro,
    SCANBRIDGE_DATA_DIR: join(tmp, 'data'),
    SCANBRIDGE_CONFIG_DIR: join(tmp, 'config'),
    ...extraEnv,
  };
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The page rendered at 150 dpi (as a phone's camera would see the printout), then its QR decoded. */
function decodeQr(pdf: string): string {
  const prefix = `${pdf}.page`;
  execFileSync('pdftoppm', ['-r', '150', '-png', pdf, prefix]);
  const png = readdirSync(tmp)
    .filter((f) => f.startsWith(`${prefix.split('/').pop()}`) && f.endsWith('.png'))
    .map((f) => join(tmp, f))[0];
  if (!png) throw new Error('pdftoppm wrote no page');
  return execFileSync('zbarimg', ['--raw', '--quiet', png], { encoding: 'utf8' }).trim();
}

const lastJson = (out: string): { file: string; pages: number } =>
  JSON.parse(out.trim().split('\n').pop() ?? '{}') as { file: string; pages: number };

let examId: string;
let pin: string;
let publicUrl: string;
let password: string;
let viewerUrl: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-handout-'));
  emu = await EmulatorProcess.start();
  const exam = await readyExam(
    emu.info,
    emu.info.keys.pro,
    filesBody('CBCT maxilar', undefined, { exam_type: 'cbct', patient_name: 'José Ñuñez Ibáñez' }),
  );
  examId = String(exam.id);
  const page = await api(emu.info, emu.info.keys.pro, 'GET', `/exams/${examId}/access-pin`);
  pin = String(page.json['pin']);
  publicUrl = String(page.json['public_url']);
  const details = await api(emu.info, emu.info.keys.pro, 'GET', `/exams/${examId}`);
  password = String(details.json['share_password']);
  viewerUrl = String(details.json['viewer_url']);
}, 60_000);

afterAll(async () => {
  await emu?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('scanbridge handout', () => {
  it('writes a Spanish sheet whose text names the patient, PIN and public page, and whose QR opens that page', async () => {
    const out = join(tmp, 'sheet-es.pdf');
    const r = await run(['handout', examId, '--out', out, '--lang', 'es']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lastJson(r.stdout)).toEqual({ file: out, pages: 1 });
    const text = execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' });
    // Accents survive: the patient's name reads exactly as the service holds it.
    expect(text).toContain('José Ñuñez Ibáñez');
    expect(text).toContain(pin);
    expect(text).toContain(publicUrl);
    expect(text).toContain(password);
    expect(text.replace(/\s+/g, '')).toContain(viewerUrl);
    expect(text).toContain('PIN de acceso');
    expect(text).toContain('Tomografía dental (CBCT)');
    expect(decodeQr(out)).toBe(publicUrl);
  }, 60_000);

  it('writes it in English on A5 paper when the settings say A5', async () => {
    const config = join(tmp, 'config');
    execFileSync('mkdir', ['-p', config]);
    writeFileSync(join(config, 'settings.json'), JSON.stringify({ schema_version: 2, handout: { paper: 'A5' } }));
    const out = join(tmp, 'sheet-en.pdf');
    const r = await run(['handout', examId, '--out', out, '--lang', 'en']);
    expect(r.code).toBe(0);
    expect(lastJson(r.stdout).pages).toBe(1);
    const info = execFileSync('pdfinfo', [out], { encoding: 'utf8' });
    // A5 is 420 × 595 points.
    expect(info).toMatch(/Page size:\s+419\.\d+ x 595\.\d+ pts|Page size:\s+420(\.\d+)? x 595(\.\d+)? pts/);
    const text = execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' });
    expect(text).toContain('Access PIN');
    expect(text).toContain('José Ñuñez Ibáñez');
    expect(decodeQr(out)).toBe(publicUrl);
  }, 60_000);

  it('says in words when the exam does not exist, and refuses a language it does not have', async () => {
    const missing = await run(['handout', 'ex_missing', '--out', join(tmp, 'x.pdf')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('was not found');
    const badLang = await run(['handout', examId, '--out', join(tmp, 'y.pdf'), '--lang', 'pt']);
    expect(badLang.code).toBe(2);
    expect(badLang.stderr).toContain('--lang must be one of es, en');
  }, 60_000);
});
