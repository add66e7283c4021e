import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { emulatorCommand } from './emulator-bundle';
import { repoRoot } from '../repo-paths';

export type EmulatorKeys = Record<'free' | 'pro' | 'clinica' | 'ultra' | 'sandbox' | 'readonly', string>;
export type EmulatorInfo = { base_url: string; control_url: string; ca_file?: string; keys: EmulatorKeys };

export type EmulatorOptions = {
  timeScale?: number;
  urlTtl?: number;
  insecureWebhooks?: boolean;
  /** `--tls`: HTTPS with a certificate from the data folder's own CA (`info.ca_file`). */
  tls?: boolean;
  /** Started from the sources through tsx, as `npm run emulator` does, even when a bundle was built. */
  fromSources?: boolean;
  /** Reuse a data folder (for restart tests); a fresh temp folder otherwise. */
  dataDir?: string;
  port?: number;
};

const root = repoRoot;

/**
 * A real emulator process, started with the CONTRACTS.md §1 arguments (from its bundle when the test
 * runner built one, see emulator-bundle.ts; else through tsx, which is what `npm run -s emulator`
 * runs), stopped with SIGTERM.
 */
export class EmulatorProcess {
  private constructor(
    readonly info: EmulatorInfo,
    readonly dataDir: string,
    private readonly child: ChildProcess,
    private readonly ownsData: boolean,
    readonly options: EmulatorOptions,
    readonly stderr: () => string,
  ) {}

  static async start(options: EmulatorOptions = {}): Promise<EmulatorProcess> {
    const ownsData = !options.dataDir;
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sb-emu-'));
    const args = [...emulatorCommand(options.fromSources), '--port', String(options.port ?? 0), '--data', dataDir];
    if (options.timeScale !== undefined) args.push('--time-scale', String(options.timeScale));
    if (options.urlTtl !== undefined) args.push('--url-ttl', String(options.urlTtl));
    if (options.insecureWebhooks) args.push('--insecure-webhooks');
    if (options.tls) args.push('--tls');
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    const stdout = child.stdout;
    if (!stdout) throw new Error('emulator stdout is not piped');
    const line = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: stdout });
      const timer = setTimeout(() => reject(new Error(`emulator did not start in 20 s: ${err}`)), 20_000);
      rl.once('line', (l) => {
        clearTimeout(timer);
        resolve(l);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`emulator exited with ${code}: ${err}`));
      });
    });
    const info = JSON.parse(line) as EmulatorInfo;
    return new EmulatorProcess(info, dataDir, child, ownsData, options, () => err);
  }

  /** Stops the process (SIGTERM, or SIGKILL for crash tests) and waits for it to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.kill(signal);
    return exited;
  }

  /** Stops and starts again on the same data folder (and the same port unless it is taken). */
  async restart(): Promise<EmulatorProcess> {
    await this.stop();
    const port = Number(new URL(this.info.base_url).port);
    return EmulatorProcess.start({ ...this.options, dataDir: this.dataDir, port });
  }

  /** Stops the process and removes its data folder if this harness created it. */
  async dispose(): Promise<void> {
    await this.stop();
    if (this.ownsData) rmSync(this.dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }

  /** Calls the control API. */
  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.info.control_url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${path} → ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

/** A tiny fetch wrapper for black-box API tests: returns status, headers and parsed JSON. */
export async function api(
  info: EmulatorInfo,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{
  status: number;
  headers: Headers;
  json: Record<string, unknown> & { error?: { code: string; message: string; [k: string]: unknown } };
}> {
  const headers: Record<string, string> = {};
  if (key) headers['Authorization'] = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${info.base_url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  if (text && (res.headers.get('content-type') ?? '').includes('json'))
    json = JSON.parse(text) as Record<string, unknown>;
  return { status: res.status, headers: res.headers, json };
}
