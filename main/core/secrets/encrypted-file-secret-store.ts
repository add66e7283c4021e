// API keys (and the proxy's login) encrypted at rest in a file of the app data folder: the desktop app's fallback when the
// OS keychain module (keytar) is not installed. The encryption is the platform's (Electron's
// safeStorage: DPAPI, Keychain, libsecret/KWallet), reached through SecretCipher so the core stays
// free of Electron. A cipher that would only obfuscate (Linux without a secret service) is refused:
// the key is then kept for the session only, never written in plain text.
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { KeychainUnavailableError } from './keychain-errors';
import type { SecretName, SecretStore } from './secret-store';

/** The platform's encryption for small secrets. */
export type SecretCipher = {
  /** True only when the encryption is backed by an OS secret (not a fixed, public password). */
  available(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
};

const fileSchema = z.object({
  version: z.literal(1),
  keys: z.object({
    live: z.string().optional(),
    sandbox: z.string().optional(),
    proxy_user: z.string().optional(),
    proxy_password: z.string().optional(),
  }),
});
type KeyFile = z.infer<typeof fileSchema>;

export class EncryptedFileSecretStore implements SecretStore {
  /** Writes one after another, so two saves never interleave on the file. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly cipher: SecretCipher,
  ) {}

  async get(kind: SecretName): Promise<string | null> {
    this.requireCipher();
    const sealed = (await this.read()).keys[kind];
    if (sealed === undefined) return null;
    try {
      return this.cipher.decrypt(Buffer.from(sealed, 'base64'));
    } catch (err) {
      // The OS secret changed (another user, a reinstalled system): the key must be pasted again.
      throw new KeychainUnavailableError(
        'locked',
        `cannot decrypt the saved ${kind} key: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  async set(kind: SecretName, value: string): Promise<void> {
    if (value.length === 0) throw new Error('An empty secret cannot be stored.');
    this.requireCipher();
    const sealed = this.cipher.encrypt(value).toString('base64');
    await this.update((f) => void (f.keys[kind] = sealed));
  }

  async delete(kind: SecretName): Promise<boolean> {
    let had = false;
    await this.update((f) => {
      had = f.keys[kind] !== undefined;
      f.keys = Object.fromEntries(Object.entries(f.keys).filter(([k]) => k !== kind));
    });
    return had;
  }

  private requireCipher(): void {
    if (!this.cipher.available())
      throw new KeychainUnavailableError('module_unavailable', 'no keychain module and no OS-backed encryption');
  }

  private async read(): Promise<KeyFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: {} };
      throw err;
    }
    const parsed = fileSchema.safeParse(JSON.parse(text) as unknown);
    // A damaged file holds nothing usable; the next save replaces it.
    return parsed.success ? parsed.data : { version: 1, keys: {} };
  }

  private update(change: (f: KeyFile) => void): Promise<void> {
    const next = this.writing.then(async () => {
      const f = await this.read();
      change(f);
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.${process.pid}.tmp`;
      // Only the user who runs the app may read it, even encrypted.
      await writeFile(tmp, `${JSON.stringify(f)}\n`, { mode: 0o600 });
      await chmod(tmp, 0o600);
      await rename(tmp, this.file);
    });
    this.writing = next.catch(() => undefined);
    return next;
  }
}
