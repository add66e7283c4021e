// "The computer's clock is wrong" told apart from "the certificate has really expired". OpenSSL
// judges a certificate's dates by this computer's clock, so a clock days off makes a good
// certificate look expired (or not yet valid). When the handshake fails on a date, the server's own
// time (its HTTP Date header) and the certificate's validity window are read, and compared:
// - the server's time is far from ours and the certificate is valid at the server's time: our clock
//   is wrong;
// - otherwise an expired certificate is really expired, and one not yet valid is said as a clock
//   problem only when no server time could be read (the usual cause).
// The read is one HEAD request without any key or data, on a connection of its own that is never
// reused; its answer only chooses the words of a failure that has already happened: nothing is
// ever sent over a connection that failed verification.
//
// `judgeDateFailure` is the one place this is decided: the connection check, the API client (so
// every command, upload and window error built on it) all call it on a failure with a date code.
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { NetFailure } from './net-failure';
import type { NetAgents } from './network';

/** What the dates of a failed handshake are compared with. */
export type CertTimeEvidence = { validFrom: Date; validTo: Date; serverDate: Date | null };

/** How far the server's clock may be from ours before ours counts as wrong. */
export const CLOCK_TOLERANCE_MS = 10 * 60 * 1000;

/** The date codes OpenSSL gives a certificate outside its validity window (as this computer sees it). */
export const CERT_DATE_CODES: ReadonlySet<string> = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/**
 * `clock_wrong` when this computer's clock (`localNow`) is what makes the certificate look invalid,
 * `cert_invalid` when it is really outside its window, null when it is valid now.
 */
export function judgeCertTime(e: CertTimeEvidence, localNow: Date): 'clock_wrong' | 'cert_invalid' | null {
  const inWindow = (d: Date): boolean => d.getTime() >= e.validFrom.getTime() && d.getTime() <= e.validTo.getTime();
  if (inWindow(localNow)) return null;
  const skewed = e.serverDate !== null && Math.abs(localNow.getTime() - e.serverDate.getTime()) > CLOCK_TOLERANCE_MS;
  if (skewed && e.serverDate) return inWindow(e.serverDate) ? 'clock_wrong' : 'cert_invalid';
  if (localNow.getTime() > e.validTo.getTime()) return 'cert_invalid';
  return e.serverDate === null ? 'clock_wrong' : 'cert_invalid';
}

/**
 * The certificate's window and the server's Date header at `origin`, read over `agents` (fresh
 * pools the caller destroys). Null when they cannot be read.
 */
export function readCertTime(origin: string, agents: NetAgents, timeoutMs: number): Promise<CertTimeEvidence | null> {
  return new Promise((resolve) => {
    const req = httpsRequest(
      `${origin}/`,
      // Verification has already failed on a date: this one answer is only read for its dates.
      { method: 'HEAD', agent: agents.https, timeout: timeoutMs, rejectUnauthorized: false },
      (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate();
        const date = res.headers.date ? new Date(res.headers.date) : null;
        res.resume();
        req.destroy();
        if (!cert.valid_from || !cert.valid_to) return resolve(null);
        resolve({
          validFrom: new Date(cert.valid_from),
          validTo: new Date(cert.valid_to),
          serverDate: date && !Number.isNaN(date.getTime()) ? date : null,
        });
      },
    );
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(null));
    req.end();
  });
}

/** How long the dates may take to read before the failure is said from its code alone. */
const READ_TIMEOUT_MS = 10_000;

/**
 * A classified failure with its kind decided by the dates when its code is a date code
 * (CERT_HAS_EXPIRED, CERT_NOT_YET_VALID): `clock_wrong` or `cert_invalid` as `judgeCertTime` says
 * on the server's time and the certificate's window read at `origin` over `agents` (fresh pools of
 * the same route; the caller destroys them). Unchanged for any other failure, or when the dates
 * cannot be read (then the code alone decides, as `classifyNetFailure` did). `evidence` is what
 * was read, if anything.
 */
export async function judgeDateFailure(
  failure: NetFailure,
  origin: string,
  agents: NetAgents,
  options: { timeoutMs?: number; now?: () => Date } = {},
): Promise<{ failure: NetFailure; evidence: CertTimeEvidence | null }> {
  if (!CERT_DATE_CODES.has(failure.code)) return { failure, evidence: null };
  const evidence = await readCertTime(origin, agents, Math.min(options.timeoutMs ?? READ_TIMEOUT_MS, READ_TIMEOUT_MS));
  if (!evidence) return { failure, evidence };
  const kind = judgeCertTime(evidence, (options.now ?? (() => new Date()))());
  return { failure: kind ? { ...failure, kind } : failure, evidence };
}
