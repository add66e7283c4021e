// A listener problem (a code and its facts, see ReceiveProblem in the contract) in words. The
// window words the same codes from the same catalogue; a full disk is worded here with the folder,
// which the front ends on this computer know and the contract does not carry.
import type { ReceiveProblem } from '../../../preload/contract';
import { t, type Language } from '../i18n';

const MIB = 1024 * 1024;

/** `p` in `lang`; `folder` is the listener's data folder (named by a full disk). */
export function receiveProblemWords(p: ReceiveProblem, lang: Language, folder: string): string {
  if (p.code === 'disk_full') return t(lang, 'core.diskFull', { folder, size: `${p.needed_mb} MB` });
  return t(lang, `core.receive.problem.${p.code}`, p);
}

/** The problem of a port that could not be opened, by the system's error code. */
export function listenProblem(errno: string | undefined, port: number): ReceiveProblem {
  if (errno === 'EADDRINUSE') return { code: 'port_in_use', port };
  if (errno === 'EACCES') return { code: 'port_forbidden', port };
  if (errno === 'EADDRNOTAVAIL') return { code: 'address_unavailable', port };
  return { code: 'listen_failed', port, errno: errno ?? 'error' };
}

/** Megabytes to free for `bytes` (at least one). */
export const neededMegabytes = (bytes: number): number => Math.max(1, Math.ceil(bytes / MIB));
