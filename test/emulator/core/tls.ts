// `--tls`: a certificate authority kept in the data folder (created once, reused on every restart
// with the same `--data`) and a server certificate for 127.0.0.1 and localhost signed by it. The
// server certificate is made afresh at each start (it is cheap and never needs to survive).
// node-forge builds the certificates; the keys come from node:crypto (fast, native).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

export type TlsMaterial = { caFile: string; key: string; cert: string };

const CA_DIR = 'tls';
const YEAR_MS = 365 * 24 * 3600 * 1000;

function rsaKeys(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function baseCertificate(publicPem: string, years: number): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicPem);
  // A positive serial (its first byte below 0x80).
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 3600_000);
  cert.validity.notAfter = new Date(now + years * YEAR_MS);
  return cert;
}

function createCa(dir: string): void {
  const keys = rsaKeys();
  const cert = baseCertificate(keys.publicPem, 10);
  const subject = [
    { name: 'commonName', value: 'ScanBridge Emulator Test CA' },
    { name: 'organizationName', value: 'ScanBridge emulator' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keys.privatePem), forge.md.sha256.create());
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'ca-key.pem'), keys.privatePem, { mode: 0o600 });
  writeFileSync(join(dir, 'ca.pem'), forge.pki.certificateToPem(cert));
}

function serverCertificate(caCertPem: string, caKeyPem: string): { key: string; cert: string } {
  const ca = forge.pki.certificateFromPem(caCertPem);
  const keys = rsaKeys();
  const cert = baseCertificate(keys.publicPem, 1);
  cert.setSubject([{ name: 'commonName', value: 'localhost' }]);
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(caKeyPem), forge.md.sha256.create());
  return { key: keys.privatePem, cert: forge.pki.certificateToPem(cert) };
}

/** The CA of `dataDir` (made on first use) and a fresh server certificate signed by it. */
export function tlsMaterial(dataDir: string): TlsMaterial {
  const dir = join(dataDir, CA_DIR);
  const caFile = join(dir, 'ca.pem');
  if (!existsSync(caFile) || !existsSync(join(dir, 'ca-key.pem'))) createCa(dir);
  const caCert = readFileSync(caFile, 'utf8');
  const caKey = readFileSync(join(dir, 'ca-key.pem'), 'utf8');
  return { caFile, ...serverCertificate(caCert, caKey) };
}
