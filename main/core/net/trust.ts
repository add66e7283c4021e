// Which certificate authorities the connections trust. Verification is never switched off: an
// extra CA is added to Node's roots, it never replaces them.
//
// - `SCANBRIDGE_CA_FILE` (or the CA file saved in Settings): a PEM file with one or more
//   certificates, e.g. the clinic's TLS-inspecting firewall's CA;
// - `NODE_EXTRA_CA_CERTS`: Node reads it at start-up into its default roots; because an explicit
//   `ca` list replaces those defaults, the file is read again here and kept;
// - the operating system's store (the desktop app): where the runtime can read it
//   (`tls.getCACertificates('system')`, Node 22.15 and later, which Electron embeds).
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';

/** Why a CA file cannot be used: it cannot be read, or it holds no PEM certificate. */
export type TrustFileProblem = 'unreadable' | 'no_certificate';

export class TrustFileError extends Error {
  override name = 'TrustFileError';
  constructor(
    readonly path: string,
    readonly problem: TrustFileProblem,
    /** The system's code when the file cannot be read (ENOENT, EACCES, EISDIR…). */
    readonly code: string | null = null,
  ) {
    super(
      problem === 'unreadable'
        ? `The certificate file ${path} cannot be read (${code ?? 'error'}).`
        : `The file ${path} holds no PEM certificate.`,
    );
  }
}

export type TrustOptions = {
  env: NodeJS.ProcessEnv;
  /** A CA file from Settings, used when SCANBRIDGE_CA_FILE is not set. */
  settingsCaFile?: string | null;
  /** The desktop app: trust the operating system's certificate store too. */
  systemStore?: boolean;
};

/** The trust as the connections use it: `ca` undefined keeps Node's own defaults untouched. */
export type Trust = { ca: string[] | undefined; extraFiles: string[]; systemStore: boolean };

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The PEM certificates of a file; a missing file or one without a certificate is an error that names it. */
export function readPemFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new TrustFileError(path, 'unreadable', (e as NodeJS.ErrnoException).code ?? null);
  }
  const certs = text.match(PEM) ?? [];
  if (certs.length === 0) throw new TrustFileError(path, 'no_certificate');
  return certs;
}

type CaReader = (type: 'system' | 'default') => string[];

/** The operating system's CAs where the runtime offers them (Node 22.15+, Electron), else none. */
export function systemCertificates(): string[] {
  const reader = (tls as unknown as { getCACertificates?: CaReader }).getCACertificates;
  if (typeof reader !== 'function') return [];
  try {
    return reader('system');
  } catch {
    return [];
  }
}

/** The CAs to trust for these options. */
export function resolveTrust(options: TrustOptions): Trust {
  const extraFiles: string[] = [];
  const own = options.env['SCANBRIDGE_CA_FILE']?.trim() || options.settingsCaFile?.trim() || '';
  if (own) extraFiles.push(own);
  const extra = extraFiles.flatMap(readPemFile);
  const system = options.systemStore ? systemCertificates() : [];
  if (extra.length === 0 && system.length === 0)
    return { ca: undefined, extraFiles, systemStore: Boolean(options.systemStore) };
  const nodeExtra = options.env['NODE_EXTRA_CA_CERTS']?.trim();
  // Node's NODE_EXTRA_CA_CERTS file is optional: one that cannot be read only loses itself (Node
  // warns at start-up the same way).
  const kept = nodeExtra ? safeRead(nodeExtra) : [];
  return {
    ca: [...new Set([...tls.rootCertificates, ...system, ...kept, ...extra])],
    extraFiles,
    systemStore: Boolean(options.systemStore),
  };
}

function safeRead(path: string): string[] {
  try {
    return readPemFile(path);
  } catch {
    return [];
  }
}
