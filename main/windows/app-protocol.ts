// The renderer is served from app://scanbridge/ rather than file://: a real origin for the
// sender checks, no access to the rest of the disk, and the CSP header on every response.
import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import type { Session } from 'electron';
import { SECURITY_HEADERS } from '../core/bridge/csp';
import { contentTypeOf, lookupStatic } from '../core/bridge/static-files';
import { APP_HOST, APP_ORIGIN, APP_SCHEME } from './policy';

export { APP_HOST, APP_ORIGIN, APP_SCHEME, appUrl, isAppUrl } from './policy';

/** Must run before the app is ready: the scheme is standard (real origin) and secure (like https). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

const plain = (status: number, text: string): Response =>
  new Response(text, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });

/** Serves the built renderer on app://scanbridge/ in `ses`, with the CSP and the SPA fallback. */
export function serveRenderer(ses: Session, rendererDir: string): void {
  ses.protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return plain(404, 'Not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    // The raw path, not URL-normalised, so that traversal attempts are refused rather than rewritten.
    const rawPath = request.url.slice(APP_ORIGIN.length).split(/[?#]/)[0] ?? '/';
    const found = await lookupStatic(rendererDir, rawPath || '/');
    if (found.kind === 'bad_path') return plain(400, 'Bad path');
    if (found.kind === 'forbidden') return plain(403, 'Forbidden');
    if (found.kind === 'not_found') return plain(404, 'Not found');
    const body = await readFile(found.path);
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeOf(found.path), 'Content-Length': String(found.size) },
    });
  });
}
