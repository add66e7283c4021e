// The desktop app's network: the system's proxy settings and PAC file, as Chromium resolves them
// (session.resolveProxy, the way GitHub Desktop does), and the operating system's certificate
// store where the runtime offers it (Electron's Node: tls.getCACertificates('system')), plus the
// environment's proxy and CA variables when they are set.
import type { Session } from 'electron';
import { errorCode, type Logger } from '../core/log';
import { type Network, networkFrom, type ProxyRoute } from '../core/net/network';
import { TrustFileError } from '../core/net/trust';

/**
 * The app's network; `settingsProxy` (the proxy saved in Settings, with its login) wins when set,
 * and `settingsCaFile` (the extra CA file saved in Settings) is trusted unless SCANBRIDGE_CA_FILE
 * names another.
 */
export function systemNetwork(
  session: Pick<Session, 'resolveProxy'>,
  log: Logger,
  settingsProxy: ProxyRoute | null = null,
  settingsCaFile: string | null = null,
): Network {
  const systemResolve = (url: string): Promise<string> => session.resolveProxy(url);
  try {
    return networkFrom({ env: process.env, systemStore: true, systemResolve, settingsProxy, settingsCaFile });
  } catch (e) {
    if (!(e instanceof TrustFileError)) throw e;
    // A CA file that cannot be read must not stop the app: it runs on the other roots and says so.
    log.error('the CA file could not be read; the app goes on without it', { code: errorCode(e) });
    return networkFrom({
      env: { ...process.env, SCANBRIDGE_CA_FILE: '' },
      systemStore: true,
      systemResolve,
      settingsProxy,
      settingsCaFile: null,
    });
  }
}
