import { describe, expect, it } from 'vitest';
import { appUrl, externalUrlAllowed, hostsOf, isAppUrl, senderFrameAllowed } from '@main/windows/policy';

describe('window policy', () => {
  it('recognises only our own app:// origin', () => {
    expect(isAppUrl(appUrl('/'))).toBe(true);
    expect(isAppUrl('app://scanbridge/uploads?x=1')).toBe(true);
    for (const url of [
      'app://other/',
      'https://scanbridge/',
      'file:///etc/passwd',
      'app://user:pw@scanbridge/',
      'not a url',
      '',
    ])
      expect(isAppUrl(url), url).toBe(false);
  });

  it('opens in the browser only https links of the configured service host', () => {
    const hosts = hostsOf(['https://api.imagenes.example/api/v1', 'not a url', '']);
    expect(externalUrlAllowed('https://api.imagenes.example/viewer/abc', hosts)).toBe(true);
    for (const url of [
      'http://api.imagenes.example/viewer',
      'https://evil.example/',
      'https://api.imagenes.example.evil.example/',
      'https://x:y@api.imagenes.example/',
      'javascript:alert(1)',
      'file:///C:/x',
    ]) {
      expect(externalUrlAllowed(url, hosts), url).toBe(false);
    }
    expect(externalUrlAllowed('https://api.imagenes.example/', hostsOf([]))).toBe(false);
  });

  it('accepts IPC only from the top frame of our page', () => {
    expect(senderFrameAllowed({ url: 'app://scanbridge/', parent: null })).toBe(true);
    expect(senderFrameAllowed({ url: 'app://scanbridge/', parent: {} })).toBe(false);
    expect(senderFrameAllowed({ url: 'https://evil.example/', parent: null })).toBe(false);
    expect(senderFrameAllowed(null)).toBe(false);
  });
});
