// HTTPS servers on certificates with chosen validity dates, issued by a CA of the test's own, whose
// Date header says what time the server believes it is: a certificate really out of date (the
// server agrees with this computer's clock) and a clock that is wrong (the server's time, days
// away, is inside the certificate's window) are both made with real TLS.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';

export const DAY = 24 * 3600 * 1000;

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

export class DatedTls {
  private readonly servers: Server[] = [];
  private serial = 2;
  private constructor(
    private readonly dir: string,
    /** The test CA's certificate (PEM): trust it (SCANBRIDGE_CA_FILE) to reach the servers. */
    readonly caFile: string,
    private readonly caKey: forge.pki.rsa.PrivateKey,
  ) {}

  static readonly caSubject = [{ name: 'commonName', value: 'Clock Test CA' }];

  /** A CA valid from a year ago to a year ahead, written to a temporary folder. */
  static create(): DatedTls {
    const caKeys = keys();
    const ca = certificate(caKeys.publicPem, new Date(Date.now() - 365 * DAY), new Date(Date.now() + 365 * DAY), '01');
    ca.setSubject(DatedTls.caSubject);
    ca.setIssuer(DatedTls.caSubject);
    ca.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, critical: true },
    ]);
    const caKey = forge.pki.privateKeyFromPem(caKeys.privatePem);
    ca.sign(caKey, forge.md.sha256.create());
    const dir = mkdtempSync(join(tmpdir(), 'sb-dated-tls-'));
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, forge.pki.certificateToPem(ca));
    return new DatedTls(dir, caFile, caKey);
  }

  /** Serves HTTPS on 127.0.0.1 with a certificate valid `from`..`to`, its Date header `serverTime`. Returns its API base URL. */
  async serve(from: Date, to: Date, serverTime: Date): Promise<string> {
    const k = keys();
    const cert = certificate(k.publicPem, from, to, (this.serial++).toString(16).padStart(2, '0'));
    cert.setSubject([{ name: 'commonName', value: '127.0.0.1' }]);
    cert.setIssuer(DatedTls.caSubject);
    cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]);
    cert.sign(this.caKey, forge.md.sha256.create());
    const server = createServer({ key: k.privatePem, cert: forge.pki.certificateToPem(cert) }, (_req, res) => {
      res.setHeader('Date', serverTime.toUTCString());
      res.end();
    });
    this.servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => new Promise((r) => s.close(r))));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
