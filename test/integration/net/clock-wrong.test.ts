// "This computer's clock is wrong" told apart from a certificate that has really expired (or is
// not valid yet), with real TLS: an HTTPS server on a certificate with a chosen validity, issued by
// a CA this test trusts, whose Date header says what time the server believes it is.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConnectionCheck } from '@main/core/diagnose/connection-check';
import { reportStepWords } from '@main/core/diagnose/check-words';
import { judgeCertTime } from '@main/core/net/cert-time';
import { createNetwork, directResolver } from '@main/core/net/network';
import { resolveTrust } from '@main/core/net/trust';

const DAY = 24 * 3600 * 1000;

function keys(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function certificate(publicPem: string, from: Date, to: Date, serial: string): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  cert.serialNumber = serial;
  cert.validity.notBefore = from;
  cert.validity.notAfter = to;
  return cert;
}

const caKeys = keys();
const caCert = certificate(caKeys.publicPem, new Date(Date.now() - 365 * DAY), new Date(Date.now() + 365 * DAY), '01');
const caSubject = [{ name: 'commonName', value: 'Clock Test CA' }];
caCert.setSubject(caSubject);
caCert.setIssuer(caSubject);
caCert.setExtensions([
  { name: 'basicConstraints', cA: true, critical: true },
  { name: 'keyUsage', keyCertSign: true, critical: true },
]);
caCert.sign(forge.pki.privateKeyFromPem(caKeys.privatePem), forge.md.sha256.create());

/** A server certificate for 127.0.0.1 valid from `from` to `to`. */
function serverMaterial(from: Date, to: Date): { key: string; cert: string } {
  const k = keys();
  const cert = certificate(k.publicPem, from, to, `02${Date.now().toString(16)}`);
  cert.setSubject([{ name: 'commonName', value: '127.0.0.1' }]);
  cert.setIssuer(caSubject);
  cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]);
  cert.sign(forge.pki.privateKeyFromPem(caKeys.privatePem), forge.md.sha256.create());
  return { key: k.privatePem, cert: forge.pki.certificateToPem(cert) };
}

let dir: string;
let caFile: string;
const servers: Server[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-clock-'));
  caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, forge.pki.certificateToPem(caCert));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

/** An HTTPS server on a certificate valid `from`..`to` whose Date header says `serverTime`. */
async function serve(from: Date, to: Date, serverTime: Date): Promise<string> {
  const server = createServer(serverMaterial(from, to), (_req, res) => {
    res.setHeader('Date', serverTime.toUTCString());
    res.end();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
}

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
