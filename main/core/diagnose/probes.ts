// The low-level probes of the connection check: a name lookup, a TCP connect, a TLS handshake
// (through the proxy when there is one) and a PUT of test bytes to a presigned URL. Each resolves
// with what it saw or rejects with the system's error, which the check classifies.
import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { NetAgents } from '../net/network';

export async function lookupHost(host: string): Promise<string[]> {
  const found = await lookup(host.replace(/^\[(.*)\]$/, '$1'), { all: true });
  return found.map((a) => a.address);
}

/** Opens and closes a TCP connection to host:port. */
export function tcpConnect(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: host.replace(/^\[(.*)\]$/, '$1'), port });
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(Object.assign(new Error('connection timed out'), { code: 'ETIMEDOUT' })),
    );
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

export type PeerCertificate = {
  issuer: string | null;
  subject: string | null;
  validTo: string | null;
  protocol: string | null;
};

function name(fields: Record<string, unknown> | undefined): string | null {
  if (!fields) return null;
  const cn = fields['CN'];
  const o = fields['O'];
  const pick = (v: unknown): string | null => (typeof v === 'string' ? v : Array.isArray(v) ? String(v[0]) : null);
  return pick(cn) ?? pick(o);
}

/** A HEAD request to `origin` over the agents (so through the proxy and trust): the certificate seen. */
export function tlsHandshake(origin: string, agents: NetAgents, timeoutMs: number): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${origin}/`, { method: 'HEAD', agent: agents.https, timeout: timeoutMs }, (res) => {
      const socket = res.socket as TLSSocket;
      const cert = socket.getPeerCertificate();
      const issuer = cert.issuer as unknown as Record<string, unknown> | undefined;
      const subject = cert.subject as unknown as Record<string, unknown> | undefined;
      resolve({
        issuer: name(issuer),
        subject: name(subject),
        validTo: cert.valid_to ? new Date(cert.valid_to).toISOString() : null,
        protocol: socket.getProtocol(),
      });
      res.resume();
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    req.end();
  });
}

/** PUTs `bytes` to a presigned URL; resolves with the status once storage answered. */
export function putBytes(url: string, bytes: Buffer, agents: NetAgents, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const isHttps = target.protocol === 'https:';
    const req = (isHttps ? httpsRequest : httpRequest)(
      target,
      {
        method: 'PUT',
        agent: isHttps ? agents.https : agents.http,
        timeout: timeoutMs,
        headers: { 'Content-Length': String(bytes.length), 'Content-Type': 'application/octet-stream' },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    req.end(bytes);
  });
}
