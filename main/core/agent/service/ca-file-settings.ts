// The extra certificate authority (CA) file set in Settings → Network: a PEM file trusted besides
// the built-in roots (the root of a firewall that inspects TLS, from the clinic's IT). Its path is
// kept in the settings file; it is read when the network is built, so a file replaced by IT is
// picked up on the next start or save. SCANBRIDGE_CA_FILE, when set, wins over it (net/trust.ts).
import { isAbsolute, resolve } from 'node:path';
import type { CaFileView } from '../../../../preload/contract';
import { trustFileWords } from '../../net/failure-words';
import { readPemFile, TrustFileError } from '../../net/trust';
import type { SettingsStore } from '../../settings';
import { ContractFailure } from '../host/contract-host';
import type { Logger } from '../../log';

export class CaFileSettings {
  constructor(
    private readonly o: {
      settingsStore: Pick<SettingsStore, 'get' | 'update'>;
      env: NodeJS.ProcessEnv;
      /** Rebuilds the process's network on what Settings → Network holds (proxy-settings.ts). */
      rebuild: () => void;
      log: Logger;
    },
  ) {}

  /** The file saved, how many certificates it holds now, or why it cannot be used. */
  view(): CaFileView {
    const path = this.o.settingsStore.get().network.ca_file;
    const envFile = this.o.env['SCANBRIDGE_CA_FILE']?.trim() || null;
    if (!path) return { path: null, certificates: 0, problem: null, env_file: envFile };
    try {
      return { path, certificates: readPemFile(path).length, problem: null, env_file: envFile };
    } catch (e) {
      if (!(e instanceof TrustFileError)) throw e;
      return { path, certificates: 0, problem: e.problem, env_file: envFile };
    }
  }

  /**
   * Saves the file (null or empty removes it) once it reads as PEM certificates, then rebuilds the
   * network. A file that cannot be used is refused and nothing changes.
   */
  save(path: string | null): CaFileView {
    const given = path?.trim() || null;
    let full: string | null = null;
    if (given) {
      if (!isAbsolute(given)) throw new ContractFailure('invalid_args', 'Give the full path of the certificate file.');
      full = resolve(given);
      try {
        readPemFile(full);
      } catch (e) {
        if (!(e instanceof TrustFileError)) throw e;
        // No field details: the window names none (the code's own text says what to do).
        throw new ContractFailure(`ca_file_${e.problem}`, trustFileWords(e));
      }
    }
    this.o.settingsStore.update({ network: { ...this.o.settingsStore.get().network, ca_file: full } });
    this.o.rebuild();
    this.o.log.info(full ? 'extra CA file set in Settings' : 'extra CA file removed from Settings');
    return this.view();
  }
}
