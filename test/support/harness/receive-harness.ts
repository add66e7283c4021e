// Shared by the DICOM listener's tests and benchmark: `scanbridge receive` as a process, DCMTK's
// storescu/echoscu as the scanner, and the pixel data of a Part-10 file for byte comparisons.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { cliBin, cliNodeOptions, repoRoot } from '../repo-paths';

export type ReceiveCli = {
  child: ChildProcess;
  stdout: () => string[];
  stderr: () => string;
  exited: Promise<number | null>;
};

/**
 * Starts `scanbridge receive` with `args` against the service at `env`, with the launcher's Node
 * options unless others are given (`[]`: V8's defaults, as in the desktop app's main process).
 */
export function startReceive(
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeOptions: readonly string[] = cliNodeOptions,
): ReceiveCli {
  const child = spawn(process.execPath, [...nodeOptions, cliBin, 'receive', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, stdout: () => out.split('\n').filter((l) => l !== ''), stderr: () => err, exited };
}

/** The port from the first stdout line `{"listening":{"port":N,"aet":"…"}}`. */
export function listeningPort(cli: ReceiveCli): number | null {
  const first = cli.stdout()[0];
  if (!first) return null;
  const parsed = JSON.parse(first) as { listening?: { port?: number } };
  return parsed.listening?.port ?? null;
}

export type ToolResult = { code: number; stdout: string; stderr: string };

/**
 * DCMTK as Debian builds it leaves Nagle's algorithm on unless TCP_NODELAY=1 is in the environment;
 * with it on, every C-STORE waits ~40 ms on delayed ACKs (whatever the receiver). Scanners' DICOM
 * stacks disable it; the tools here do too.
 */
export const DCMTK_ENV: NodeJS.ProcessEnv = { ...process.env, TCP_NODELAY: '1' };

/** Runs a DCMTK tool (never blocking the event loop: the listener may be in this process). */
export function dcmtk(tool: 'storescu' | 'echoscu', args: string[]): Promise<ToolResult> {
  return new Promise((resolve) => {
    execFile(tool, args, { maxBuffer: 16 << 20, env: DCMTK_ENV }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Sends `paths` (files or folders) to the listener in one association; `abort` ends it with an A-ABORT. */
export function storescu(
  port: number,
  paths: string[],
  o: { aet?: string; abort?: boolean } = {},
): Promise<ToolResult> {
  return dcmtk('storescu', [
    '-aec',
    o.aet ?? 'SCANBRIDGE',
    ...(o.abort ? ['--abort'] : []),
    '127.0.0.1',
    String(port),
    '+sd',
    ...paths,
  ]);
}

/** The value of the last top-level Pixel Data element (7FE0,0010) of a little-endian file. */
export function pixelData(file: Buffer): Buffer {
  const at = file.lastIndexOf(Buffer.from([0xe0, 0x7f, 0x10, 0x00]));
  if (at < 0) throw new Error('no Pixel Data element');
  const vr = file.toString('latin1', at + 4, at + 6);
  if (vr === 'OW' || vr === 'OB') {
    const len = file.readUInt32LE(at + 8);
    return file.subarray(at + 12, at + 12 + len);
  }
  const len = file.readUInt32LE(at + 4); // implicit VR
  return file.subarray(at + 8, at + 8 + len);
}

/** sha256 of a file's pixel data. */
export async function pixelHash(path: string): Promise<string> {
  return createHash('sha256')
    .update(pixelData(await readFile(path)))
    .digest('hex');
}
