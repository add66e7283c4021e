// The network a command runs on: the proxy saved in Settings (its login from the keychain) when
// there is one, else the environment's (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), and the trusted CAs
// (SCANBRIDGE_CA_FILE, else the CA file saved in Settings; NODE_EXTRA_CA_CERTS). Every command that
// reaches the service starts here.
import { type Network, networkFrom, useNetwork } from '../../net/network';
import { settingsProxyFor } from '../../net/settings-proxy';
import { keychainText } from '../words/error-words';
import { terminalLanguage, trustFileWords } from '../../net/failure-words';
import { TrustFileError } from '../../net/trust';
import type { SecretStore } from '../../secrets/secret-store';
import type { Settings } from '../../settings/settings-schema';
import { openSettingsStore } from '../../settings/store';
import type { CliIo } from './io';
import { t } from '../../i18n';

/**
 * Builds the command's network and makes it the process's. Returns the network, or the problem to
 * print (a CA file that cannot be used, in the terminal's language) before anything is sent. A keychain that cannot be asked for
 * the proxy's login is noted on stderr: the proxy is tried without it.
 */
export async function openCommandNetwork(
  io: CliIo,
  command: string,
  secrets: () => SecretStore | Promise<SecretStore>,
  settings: Settings = openSettingsStore({ env: io.env }).get(),
): Promise<{ network: Network } | { problem: string }> {
  const proxy = await settingsProxyFor(settings.network.proxy_url, secrets);
  if (proxy.problem) {
    const lang = terminalLanguage(io.env);
    const note = t(lang, 'cli.proxyLoginUnread', { reason: keychainText(proxy.problem, lang) });
    io.stderr(`scanbridge ${command}: ${note}\n`);
  }
  try {
    const network = networkFrom({
      env: io.env,
      settingsProxy: proxy.route,
      settingsCaFile: settings.network.ca_file,
    });
    useNetwork(network);
    return { network };
  } catch (e) {
    if (e instanceof TrustFileError) return { problem: trustFileWords(e, terminalLanguage(io.env)) };
    throw e;
  }
}
