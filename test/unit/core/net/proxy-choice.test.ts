import { describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFromEnv } from '@main/core/net/proxy-env';
import { classifyNetFailure, type NetFailure, neverReachedService } from '@main/core/net/net-failure';
import { netFailureWords, terminalLanguage } from '@main/core/net/failure-words';
import { envNamesProxy, networkFrom, proxyLabel, routeFromPacResult } from '@main/core/net/network';
import { settingsProxyRoute } from '@main/core/net/settings-proxy';
import { proxyAddressProblem } from '@main/core/settings/network-settings';

describe('the proxy for a URL, as curl reads the environment', () => {
  it('uses https_proxy for https URLs and http_proxy for http ones, lower case first, then upper case', () => {
    const env = { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128', HTTP_PROXY: 'plain:8080' };
    expect(proxyFromEnv(env, 'https://api.example.cl/api/v1')).toBe('http://lower:3128');
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://upper:3128' }, 'https://api.example.cl')).toBe('http://upper:3128');
    // A proxy without a scheme is http://, as curl takes it.
    expect(proxyFromEnv(env, 'http://api.example.cl')).toBe('http://plain:8080');
    expect(proxyFromEnv({ ALL_PROXY: 'http://all:1' }, 'https://x.cl')).toBe('http://all:1');
    expect(proxyFromEnv({}, 'https://x.cl')).toBeNull();
  });

  it('reads an empty lower-case variable as unset, as curl does, so the upper-case one is used', () => {
    const url = 'https://api.example.cl/api/v1';
    expect(proxyFromEnv({ https_proxy: '', HTTPS_PROXY: 'http://upper:3128' }, url)).toBe('http://upper:3128');
    expect(proxyFromEnv({ https_proxy: '  ', HTTPS_PROXY: 'http://upper:3128' }, url)).toBe('http://upper:3128');
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://p:3128', no_proxy: '', NO_PROXY: 'example.cl' }, url)).toBeNull();
    expect(bypassesProxy({ no_proxy: '', NO_PROXY: '*' }, new URL(url))).toBe(true);
    expect(envNamesProxy({ https_proxy: '', HTTPS_PROXY: 'http://p:3128' })).toBe(true);
    expect(envNamesProxy({ https_proxy: '', http_proxy: ' ' })).toBe(false);
  });

  it('proxies loopback unless NO_PROXY names it', () => {
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://p:3128' }, 'https://127.0.0.1:8443/api')).toBe('http://p:3128');
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://p:3128', NO_PROXY: '127.0.0.1' }, 'https://127.0.0.1:8443')).toBeNull();
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://p:3128', no_proxy: 'localhost' }, 'https://localhost:1/')).toBeNull();
  });

  it('matches NO_PROXY entries like curl: domains cover subdomains, with or without a dot, * covers all, ports must match', () => {
    const u = (s: string): URL => new URL(s);
    expect(bypassesProxy({ NO_PROXY: 'example.cl' }, u('https://api.example.cl'))).toBe(true);
    expect(bypassesProxy({ NO_PROXY: '.example.cl' }, u('https://example.cl'))).toBe(true);
    expect(bypassesProxy({ NO_PROXY: 'example.cl' }, u('https://badexample.cl'))).toBe(false);
    expect(bypassesProxy({ NO_PROXY: 'a.cl, example.cl:8443' }, u('https://api.example.cl:8443'))).toBe(true);
    expect(bypassesProxy({ NO_PROXY: 'example.cl:8443' }, u('https://api.example.cl'))).toBe(false);
    expect(bypassesProxy({ NO_PROXY: '*' }, u('https://anything.cl'))).toBe(true);
    expect(bypassesProxy({ NO_PROXY: '[::1]:443' }, u('https://[::1]/'))).toBe(true);
  });

  it('reads the PAC answers Electron gives: the first PROXY or HTTPS entry, DIRECT as none', () => {
    expect(routeFromPacResult('DIRECT')).toBeNull();
    expect(proxyLabel(routeFromPacResult('PROXY proxy.hospital.cl:8080; DIRECT'))).toBe(
      'http://proxy.hospital.cl:8080',
    );
    expect(proxyLabel(routeFromPacResult('SOCKS5 s:1080; HTTPS secure.cl:443'))).toBe('https://secure.cl');
    expect(routeFromPacResult('')).toBeNull();
  });

  it('puts the Settings proxy before the environment and the system (NO_PROXY still honoured), and never names the login', async () => {
    const settingsProxy = { url: new URL('http://u:p@settings:3128'), source: 'settings' as const };
    const overEnv = networkFrom({ env: { HTTPS_PROXY: 'http://env:1' }, settingsProxy });
    expect((await overEnv.route('https://x.cl'))?.source).toBe('settings');
    const bypassed = networkFrom({ env: { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'x.cl' }, settingsProxy });
    expect(await bypassed.route('https://api.x.cl')).toBeNull();
    expect((await bypassed.route('https://other.cl'))?.source).toBe('settings');
    const fromSettings = networkFrom({
      env: {},
      settingsProxy,
      systemResolve: () => Promise.resolve('PROXY sys:1'),
    });
    const r = await fromSettings.route('https://x.cl');
    expect(r?.source).toBe('settings');
    expect(proxyLabel(r)).toBe('http://settings:3128');
    const fromEnv = networkFrom({
      env: { HTTPS_PROXY: 'http://env:1' },
      systemResolve: () => Promise.resolve('PROXY sys:1'),
    });
    expect((await fromEnv.route('https://x.cl'))?.source).toBe('env');
    const fromSystem = networkFrom({ env: {}, systemResolve: () => Promise.resolve('PROXY sys:1') });
    expect((await fromSystem.route('https://x.cl'))?.source).toBe('system');
  });

  it('takes a Settings address only bare (no login, no path), and puts the keychain login into the route', () => {
    expect(proxyAddressProblem('http://proxy.clinic.local:3128')).toBeNull();
    expect(proxyAddressProblem('https://proxy.clinic.local')).toBeNull();
    expect(proxyAddressProblem('http://u:p@proxy:3128')).toMatch(/user and password/);
    expect(proxyAddressProblem('socks5://proxy:1080')).toMatch(/only http/);
    expect(proxyAddressProblem('proxy:3128')).not.toBeNull();
    expect(proxyAddressProblem('http://proxy:3128/path')).toMatch(/no path/);
    const route = settingsProxyRoute('http://proxy:3128', { user: 'ana@clínica', password: 'p:w/d' });
    expect(route.source).toBe('settings');
    expect(decodeURIComponent(route.url.username)).toBe('ana@clínica');
    expect(decodeURIComponent(route.url.password)).toBe('p:w/d');
    expect(proxyLabel(route)).toBe('http://proxy:3128');
  });
});

describe('network failures in words', () => {
  const err = (code: string, message = code): Error => Object.assign(new Error(message), { code });
  const classified = (e: unknown, host: string, proxy: string | null): NetFailure => {
    const f = classifyNetFailure(e, host, proxy);
    if (!f) throw new Error('not classified');
    return f;
  };

  it('maps system and TLS codes to one kind each', () => {
    const kind = (e: unknown, proxy: string | null = null): string | undefined =>
      classifyNetFailure(e, 'api.example.cl', proxy)?.kind;
    expect(kind(err('ENOTFOUND'))).toBe('name_not_found');
    expect(kind(err('ECONNREFUSED'))).toBe('unreachable');
    expect(kind(err('ECONNREFUSED'), 'http://p:1')).toBe('proxy_unreachable');
    expect(kind(err('UNABLE_TO_VERIFY_LEAF_SIGNATURE'))).toBe('cert_untrusted');
    expect(kind(err('SELF_SIGNED_CERT_IN_CHAIN'))).toBe('cert_untrusted');
    expect(kind(err('CERT_HAS_EXPIRED'))).toBe('cert_invalid');
    expect(kind(err('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('cert_invalid');
    expect(kind(err('CERT_NOT_YET_VALID'))).toBe('clock_wrong');
    // got wraps the system error; the cause chain is read.
    expect(kind(new Error('wrapped', { cause: err('ENOTFOUND') }))).toBe('name_not_found');
    expect(kind(new Error('Bad response: 407'), 'http://p:1')).toBe('proxy_auth');
    expect(kind(new Error('Bad response: 502'), 'http://p:1')).toBe('proxy_unreachable');
    expect(kind(err('ERR_SOMETHING_ELSE'))).toBeUndefined();
  });

  it('knows which failures certainly never reached the service', () => {
    const f = (code: string): NetFailure => classified(err(code), 'h', null);
    expect(neverReachedService(f('ECONNREFUSED'))).toBe(true);
    expect(neverReachedService(f('CERT_HAS_EXPIRED'))).toBe(true);
    expect(neverReachedService(f('ECONNRESET'))).toBe(false);
  });

  it('says each failure in Spanish and English, naming the proxy and what to ask IT for', () => {
    const auth = classified(new Error('Bad response: 407'), 'api.example.cl', 'http://proxy.cl:3128');
    expect(netFailureWords(auth, 'en')).toBe(
      'The proxy http://proxy.cl:3128 refused the login (HTTP 407). Check the proxy user and password in Settings (or in HTTPS_PROXY).',
    );
    expect(netFailureWords(auth, 'es')).toContain('El proxy http://proxy.cl:3128 rechazó el usuario y la contraseña');
    const untrusted = classified(err('SELF_SIGNED_CERT_IN_CHAIN'), 'api.example.cl', null);
    expect(netFailureWords(untrusted, 'en')).toContain("Ask IT for the network's root certificate");
    expect(netFailureWords(untrusted, 'es')).toContain('Pida a TI el certificado raíz');
    expect(netFailureWords(classified(err('CERT_NOT_YET_VALID'), 'h', null), 'es')).toContain('reloj');
    expect(terminalLanguage({ LANG: 'es_CL.UTF-8' })).toBe('es');
    expect(terminalLanguage({ LANG: 'C.UTF-8' })).toBe('en');
  });
});
