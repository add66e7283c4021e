// `watch`, `receive` and `serve` say why an upload failed in the terminal's language, as `upload`
// does: a real failure, Debian's tinyproxy refusing a wrong password, said in Spanish and in English
// by each long-running command (the built `scanbridge` bin, a DCMTK-made study, DCMTK's storescu as
// the scanner).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettingsStore } from '@main/core/settings/store';
import { writeCbctExport, type CbctExport } from '@fixtures/dicom/generate';
import { storescu } from '@support/harness/receive-harness';
import { cliBin, repoRoot } from '@support/repo-paths';
import { startTinyproxy, type Tinyproxy } from '@support/network/tinyproxy';

let proxy: Tinyproxy;
let tmp: string;
let study: CbctExport;

const LANGS = { en: 'en_US.UTF-8', es: 'es_CL.UTF-8' } as const;
type Lang = keyof typeof LANGS;

/** The refusal as each language says it (tinyproxy 1.11 answers a wrong login 401, others 407). */
function refusal(lang: Lang): RegExp {
  const p = `http://127\\.0\\.0\\.1:${proxy.port}`;
  return lang === 'es'
    ? new RegExp(`la subida falló: El proxy ${p} rechazó el usuario y la contraseña \\(HTTP 40[17]\\)`)
    : new RegExp(`upload failed: The proxy ${p} refused the login \\(HTTP 40[17]\\)`);
}

type Running = { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> };

/** Starts a command with a wrong proxy password and a private data and settings folder. */
function start(args: string[], lang: Lang, dir: string): Running {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(https?|all|no)_proxy$/i.test(k) && k !== 'NODE_EXTRA_CA_CERTS'),
  );
  const wrong = proxy.urlWithPassword('wrong');
  const env = {
    ...base,
    // The proxy refuses the tunnel before any byte reaches this address.
    SCANBRIDGE_API_URL: 'http://127.0.0.1:9/api/v1',
    SCANBRIDGE_API_KEY: 'sb_live_words_test_key_000000000000000',
    SCANBRIDGE_DATA_DIR: join(dir, 'data'),
    SCANBRIDGE_CONFIG_DIR: join(dir, 'config'),
    HTTP_PROXY: wrong,
    HTTPS_PROXY: wrong,
    // No keychain service: the key comes from the environment.
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'no-bus')}`,
    LANG: LANGS[lang],
  };
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves once `read()` matches `pattern` (checked on every chunk the child writes). */
function waitFor(run: Running, read: () => string, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (pattern.test(read())) {
        run.child.stdout?.off('data', check);
        run.child.stderr?.off('data', check);
        resolve();
      }
    };
    run.child.stdout?.on('data', check);
    run.child.stderr?.on('data', check);
    void run.exited.then(() => (pattern.test(read()) ? resolve() : reject(new Error(`exited before: ${read()}`))));
    check();
  });
}

/** Stops a long-running command as a service manager would, and returns its stderr. */
async function stop(run: Running): Promise<string> {
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
  return run.stderr();
}

/** A copy of the study of its own (each command claims the export it uploads). */
function copyOfStudy(name: string): string {
  const to = join(tmp, name, 'export');
  cpSync(study.root, join(to, 'study'), { recursive: true });
  return to;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-fail-words-'));
  [proxy, study] = await Promise.all([
    startTinyproxy(),
    writeCbctExport(join(tmpdir(), `sb-fail-words-study-${process.pid}`), { volumeSlices: 2, scoutSlices: 1 }),
  ]);
});

afterAll(async () => {
  await proxy.stop();
  rmSync(tmp, { recursive: true, force: true });
  rmSync(study.root, { recursive: true, force: true });
});

describe('upload failures of the long-running commands, in the terminal language', () => {
  it('watch', async () => {
    const runs = (['es', 'en'] as const).map((lang) => {
      const dir = join(tmp, `watch-${lang}`);
      return { lang, run: start(['watch', copyOfStudy(`watch-${lang}`), '--settle', '0.2'], lang, dir) };
    });
    for (const { lang, run } of runs) {
      await waitFor(run, run.stderr, refusal(lang));
      const err = await stop(run);
      // The line names the export, never a stack trace; the other language is not used.
      expect(err).toMatch(new RegExp(`export/study: ${refusal(lang).source}`));
      expect(err).not.toMatch(refusal(lang === 'es' ? 'en' : 'es'));
      expect(err).not.toMatch(/\n\s+at /);
      expect(err).not.toContain('wrong');
    }
  });

  it('receive', async () => {
    const runs = (['es', 'en'] as const).map((lang) => ({
      lang,
      run: start(['receive', '--port', '0', '--quiet', '0.2'], lang, join(tmp, `receive-${lang}`)),
    }));
    for (const { lang, run } of runs) {
      await waitFor(run, run.stdout, /"listening"/);
      const port = (JSON.parse(run.stdout().split('\n')[0] ?? '') as { listening: { port: number } }).listening.port;
      expect(
        (
          await storescu(
            port,
            study.series.map((s) => s.dir),
          )
        ).code,
      ).toBe(0);
      await waitFor(run, run.stderr, refusal(lang));
      const err = await stop(run);
      expect(err).not.toMatch(refusal(lang === 'es' ? 'en' : 'es'));
      expect(err).not.toMatch(/\n\s+at /);
    }
  });

  it('serve', async () => {
    const runs = (['es', 'en'] as const).map((lang) => {
      const dir = join(tmp, `serve-${lang}`);
      openSettingsStore({ env: { SCANBRIDGE_CONFIG_DIR: join(dir, 'config') } }).update({
        watch_folders: [
          {
            id: 'scanner',
            path: copyOfStudy(`serve-${lang}`),
            exam_type: 'from_dicom',
            mode: 'auto',
            settle_seconds: 1,
            polling: false,
          },
        ],
      });
      return { lang, run: start(['serve', '--port', '0'], lang, dir) };
    });
    for (const { lang, run } of runs) {
      await waitFor(run, run.stderr, refusal(lang));
      const err = await stop(run);
      expect(err).toMatch(new RegExp(`scanbridge serve: upload \\S+: ${refusal(lang).source}`));
      expect(err).not.toMatch(refusal(lang === 'es' ? 'en' : 'es'));
      expect(err).not.toMatch(/\n\s+at /);
    }
  });
});
