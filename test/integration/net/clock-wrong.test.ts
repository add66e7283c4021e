// "This computer's clock is wrong" told apart from a certificate that has really expired (or is
// not valid yet), with real TLS: an HTTPS server on a certificate with a chosen validity, issued by
// a CA this test trusts, whose Date header says what time the server believes it is.
import { afterAll, describe, expect, it } from 'vitest';
import { runConnectionCheck } from '@main/core/diagnose/connection-check';
import { reportStepWords } from '@main/core/diagnose/check-words';
import { judgeCertTime } from '@main/core/net/cert-time';
import { createNetwork, directResolver } from '@main/core/net/network';
import { resolveTrust } from '@main/core/net/trust';
import { DAY, DatedTls } from '@support/network/dated-tls';

const dated = DatedTls.create();
afterAll(() => dated.close());
const serve = (from: Date, to: Date, serverTime: Date): Promise<string> => dated.serve(from, to, serverTime);
const caFile = dated.caFile;

async function tlsStep(baseUrl: string) {
  const network = createNetwork(directResolver, resolveTrust({ env: { SCANBRIDGE_CA_FILE: caFile } }));
  const report = await runConnectionCheck({ baseUrl, apiKey: null, network, timeoutMs: 10_000 });
  expect(report.failed_step).toBe('tls');
  return { report, tls: report.tls };
}

describe("the computer's clock against the certificate's dates", () => {
  const now = Date.now();

  it('says the certificate really expired when the server agrees on the time', async () => {
    const { tls } = await tlsStep(await serve(new Date(now - 30 * DAY), new Date(now - DAY), new Date()));
    expect(tls).toMatchObject({ status: 'failed', problem: 'cert_invalid', code: 'CERT_HAS_EXPIRED' });
  });

  it('says the clock is wrong when the certificate only looks expired because this clock is days ahead', async () => {
    // The server (the real time) is 10 days behind this computer, and there the certificate is valid.
    const { report, tls } = await tlsStep(
      await serve(new Date(now - 30 * DAY), new Date(now - DAY), new Date(now - 10 * DAY)),
    );
    expect(tls).toMatchObject({ status: 'failed', problem: 'clock_wrong', code: 'CERT_HAS_EXPIRED' });
    expect(reportStepWords(report, 'tls', 'en')).toContain("This computer's clock is wrong");
    expect(reportStepWords(report, 'tls', 'es')).toContain('El reloj de este equipo está mal');
  });

  it('tells a not-yet-valid certificate apart: a clock behind, or a certificate really issued for later', async () => {
    const later = { from: new Date(now + DAY), to: new Date(now + 30 * DAY) };
    const behind = await tlsStep(await serve(later.from, later.to, new Date(now + 5 * DAY)));
    expect(behind.tls).toMatchObject({ problem: 'clock_wrong', code: 'CERT_NOT_YET_VALID' });
    const early = await tlsStep(await serve(later.from, later.to, new Date()));
    expect(early.tls).toMatchObject({ problem: 'cert_invalid', code: 'CERT_NOT_YET_VALID' });
  });

  it('judges the dates with an injected clock, and without a server time', () => {
    const w = { validFrom: new Date('2026-01-01T00:00:00Z'), validTo: new Date('2026-12-31T00:00:00Z') };
    const at = (iso: string): Date => new Date(iso);
    expect(judgeCertTime({ ...w, serverDate: null }, at('2026-06-01T00:00:00Z'))).toBeNull();
    expect(judgeCertTime({ ...w, serverDate: at('2026-06-01T00:00:00Z') }, at('2027-03-01T00:00:00Z'))).toBe(
      'clock_wrong',
    );
    expect(judgeCertTime({ ...w, serverDate: at('2027-03-01T00:05:00Z') }, at('2027-03-01T00:00:00Z'))).toBe(
      'cert_invalid',
    );
    expect(judgeCertTime({ ...w, serverDate: null }, at('2027-03-01T00:00:00Z'))).toBe('cert_invalid');
    expect(judgeCertTime({ ...w, serverDate: null }, at('2025-03-01T00:00:00Z'))).toBe('clock_wrong');
  });
});
