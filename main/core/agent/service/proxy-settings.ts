// The proxy set in Settings → Network: its address in the settings file, its user and password in
// the keychain (the same store and the same no-keychain fallback as the API keys: held for this
// session only, never written in plain text). Saving it rebuilds the process's network, so the API
// client and the presigned transfers both go through it from the next request on. The network is
// built on the extra CA file saved in Settings too (ca-file-settings.ts), which rebuilds it the same way.
import type { ProxySettingsView } from '../../../../preload/contract';
import type { Network, ProxyRoute } from '../../net/network';
import { networkFrom, useNetwork } from '../../net/network';
import { type ProxyLogin, readProxyLogin, settingsProxyRoute } from '../../net/settings-proxy';
import { KeychainUnavailableError } from '../../secrets/keychain-errors';
import type { SecretStore } from '../../secrets/secret-store';
import { proxyAddressProblem, type SettingsStore } from '../../settings';
import { ContractFailure } from '../host/contract-host';
import type { Logger } from '../../log';
import { errorCode } from '../../log';

/** What Settings → Network adds to a front end's own sources: its proxy and its extra CA file (null: none). */
export type SettingsNetwork = { settingsProxy: ProxyRoute | null; settingsCaFile: string | null };

/** Builds the process's network on what Settings → Network holds, over the front end's own sources. */
export type NetworkBuilder = (fromSettings: SettingsNetwork) => Network;

export type ProxyChange = { url: string | null; user: string | null; password?: string };

export class ProxySettings {
  private login: ProxyLogin = { user: null, password: null };
  private sessionOnly = false;

  constructor(
    private readonly o: {
      settingsStore: Pick<SettingsStore, 'get' | 'update'>;
      secrets: SecretStore;
      build: NetworkBuilder;
      log: Logger;
    },
  ) {}

  private get url(): string | null {
    return this.o.settingsStore.get().network.proxy_url;
  }

  /**
   * Reads the saved login and sets the network, when a proxy or a CA file is saved (else the front
   * end's stays).
   */
  async load(): Promise<void> {
    if (!this.url && !this.o.settingsStore.get().network.ca_file) return;
    if (this.url) {
      try {
        this.login = await readProxyLogin(this.o.secrets);
      } catch (e) {
        if (!(e instanceof KeychainUnavailableError)) throw e;
        this.o.log.warn("the proxy's login could not be read from the keychain; trying without it", {
          code: e.problem,
        });
      }
    }
    this.rebuild();
  }

  view(): ProxySettingsView {
    return {
      url: this.url,
      user: this.url ? this.login.user : null,
      password_saved: this.url !== null && this.login.password !== null,
      session_only: this.sessionOnly,
    };
  }

  /** Saves a change (the address checked first), then rebuilds the network. */
  async save(change: ProxyChange): Promise<ProxySettingsView> {
    const url = change.url && change.url.trim() !== '' ? change.url.trim() : null;
    const problem = url ? proxyAddressProblem(url) : null;
    if (url && problem)
      throw new ContractFailure('invalid_args', 'The proxy address is not valid.', [
        { field: 'url', message: problem },
      ]);
    const user = url && change.user ? change.user : null;
    let password = user ? (change.password ?? (user === this.login.user ? this.login.password : null)) : null;
    if (password === '') password = null;
    await this.keep({ user, password });
    this.o.settingsStore.update({ network: { ...this.o.settingsStore.get().network, proxy_url: url } });
    this.rebuild();
    if (url) this.o.log.info('proxy set in Settings', { flag: user !== null });
    else this.o.log.info('proxy removed from Settings');
    return this.view();
  }

  /** The login into the keychain (or, when it cannot be reached, this session's memory). */
  private async keep(login: ProxyLogin): Promise<void> {
    this.login = login;
    try {
      for (const name of ['proxy_user', 'proxy_password'] as const) {
        const value = name === 'proxy_user' ? login.user : login.password;
        if (value) await this.o.secrets.set(name, value);
        else await this.o.secrets.delete(name);
      }
      this.sessionOnly = false;
    } catch (e) {
      if (!(e instanceof KeychainUnavailableError)) throw e;
      this.sessionOnly = login.user !== null;
      this.o.log.warn("keychain unavailable: the proxy's login is kept for this session only", { code: e.problem });
    }
  }

  /** Sets the process's network on what Settings → Network holds now. */
  rebuild(): void {
    const url = this.url;
    try {
      useNetwork(
        this.o.build({
          settingsProxy: url ? settingsProxyRoute(url, this.login) : null,
          settingsCaFile: this.o.settingsStore.get().network.ca_file,
        }),
      );
    } catch (e) {
      // A CA file that cannot be read: the network stays as it was, and the log says why.
      this.o.log.error('the network could not be rebuilt', { code: errorCode(e) });
    }
  }
}

/** The Settings proxy of an agent, its login read and the network set (by default on `env`'s variables). */
export async function openProxySettings(
  from: { secretStore: SecretStore; network?: NetworkBuilder },
  o: { settingsStore: Pick<SettingsStore, 'get' | 'update'>; env: NodeJS.ProcessEnv; log: Logger },
): Promise<ProxySettings> {
  const build = from.network ?? ((s: SettingsNetwork) => networkFrom({ env: o.env, ...s }));
  const proxy = new ProxySettings({ settingsStore: o.settingsStore, secrets: from.secretStore, build, log: o.log });
  await proxy.load();
  return proxy;
}
