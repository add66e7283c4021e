// Serving the built renderer: only files under its folder, with correct content types, and the
// single-page-app fallback to index.html for route paths.
import type { ServerResponse } from 'node:http';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { SECURITY_HEADERS } from './csp';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

/** The Content-Type for a file name (octet-stream when unknown, which nosniff keeps inert). */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export type StaticLookup =
  | { kind: 'file'; path: string; size: number; fallback: boolean }
  | { kind: 'bad_path' }
  | { kind: 'forbidden' }
  | { kind: 'not_found' };

/**
 * Splits the raw request path into decoded segments, refusing `.`/`..`, encoded separators and NUL
 * instead of normalising them away (a traversal attempt gets a refusal, not some other file).
 */
function segmentsOf(rawPath: string): string[] | 'bad_path' | 'forbidden' {
  const out: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return 'bad_path';
    }
    if (seg === '.' || seg === '..' || /[/\\\0]/.test(seg) || /^[a-zA-Z]:/.test(seg)) return 'forbidden';
    out.push(seg);
  }
  return out;
}

async function fileIn(
  root: string,
  realRoot: string,
  segments: string[],
): Promise<{ path: string; size: number } | 'forbidden' | null> {
  const candidate = join(root, ...segments);
  try {
    const info = await stat(candidate);
    if (!info.isFile()) return null;
    // A symbolic link inside the folder must not lead out of it.
    const real = await realpath(candidate);
    if (real !== realRoot && !real.startsWith(realRoot + sep)) return 'forbidden';
    return { path: real, size: info.size };
  } catch {
    return null;
  }
}

/** Finds the file for a request path under `root`; route paths (no extension) fall back to index.html. */
export async function lookupStatic(root: string, rawPath: string): Promise<StaticLookup> {
  const segments = segmentsOf(rawPath);
  if (segments === 'bad_path') return { kind: 'bad_path' };
  if (segments === 'forbidden') return { kind: 'forbidden' };
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { kind: 'not_found' };
  }
  const target = segments.length === 0 ? ['index.html'] : segments;
  const found = await fileIn(root, realRoot, target);
  if (found === 'forbidden') return { kind: 'forbidden' };
  if (found) return { kind: 'file', ...found, fallback: false };
  const last = segments[segments.length - 1] ?? '';
  if (extname(last) !== '') return { kind: 'not_found' };
  const index = await fileIn(root, realRoot, ['index.html']);
  if (index && index !== 'forbidden') return { kind: 'file', ...index, fallback: true };
  return { kind: 'not_found' };
}

/** Writes a found file with its content type, the security headers and a cache policy. */
export function sendFile(
  res: ServerResponse,
  file: { path: string; size: number },
  head: boolean,
  immutable: boolean,
): void {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': contentTypeOf(file.path),
    'Content-Length': String(file.size),
    // Vite puts content hashes in asset names, so those never change; index.html always may.
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-store',
  });
  if (head) {
    res.end();
    return;
  }
  const stream = createReadStream(file.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
