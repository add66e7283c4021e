// Why a port could not be opened, worded from the system's error code (Node's own message is
// English and names the address: "listen EADDRINUSE: address already in use 127.0.0.1:8765").
import { t, type Language } from '../../i18n';

const KNOWN = ['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'] as const;

export function listenReason(err: unknown, lang: Language): string {
  const code = (err as { code?: unknown } | null)?.code;
  const known = KNOWN.find((k) => k === code);
  if (known) return t(lang, `core.listen.${known}`);
  const errno = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
  return t(lang, 'core.listen.other', { errno });
}
