import { describe, expect, it } from 'vitest';
import {
  appUrl,
  externalUrlAllowed,
  hostsOf,
  isAppUrl,
  isPdfViewerUrl,
  printRequestAllowed,
  senderFrameAllowed,
} from '@main/windows/policy';

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

describe('the print window policy', () => {
  const sheet = 'file:///home/clinic/.local/share/scanbridge/handouts/hoja-paciente-ex_1.pdf';

  it('lets the print session load the sheets being printed and the PDF viewer, nothing remote or other', () => {
    const sheets = new Set([sheet]);
    for (const url of [
      sheet,
      'chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/index.html',
      'chrome://resources/js/load_time_data.js',
      'data:application/pdf;base64,JVBERi0=',
      'blob:chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/1',
    ])
      expect(printRequestAllowed(url, sheets), url).toBe(true);
    for (const url of [
      'https://example.com/sheet.pdf',
      'http://127.0.0.1:8080/api/v1/exams',
      'wss://example.com/',
      'file:///etc/passwd',
      'file:///home/clinic/.local/share/scanbridge/handouts/hoja-paciente-ex_2.pdf',
      'chrome-extension://otherextensionid/index.html',
      'not a url',
    ])
      expect(printRequestAllowed(url, sheets), url).toBe(false);
    // Once printed, the sheet is no longer let through.
    expect(printRequestAllowed(sheet, new Set())).toBe(false);
  });

  it('recognises only the built-in PDF viewer as the viewer', () => {
    expect(isPdfViewerUrl('chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/index.html')).toBe(true);
    for (const url of [
      'chrome-extension://other/index.html',
      'chrome-extension://user@mhjfbmdgcfjbbpaeojofohoefgiehjai/',
      'https://mhjfbmdgcfjbbpaeojofohoefgiehjai/',
      '',
    ])
      expect(isPdfViewerUrl(url), url).toBe(false);
  });
});
