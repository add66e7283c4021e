// The table of failures: every HTTP status and system error code a call may end in, its class (what
// the person can do) and its words in Spanish and English. The API client's errors and the storage
// transfers must class each status the same way; a storage PUT answered 408 or 504 by a real
// server is repeated, as the API client repeats a call answered so.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { apiFailure, errorFromAnswer } from '@main/core/api/http/api-errors';
import {
  FAILURE_CAUSES,
  failureWords,
  networkCodeFailure,
  NETWORK_CODE_CAUSES,
  resumes,
  statusFailure,
  STATUS_CAUSES,
} from '@main/core/net/failure-class';
import { createAgents, putWithRetry, TransferError } from '@main/core/upload/transfer/transfer';

/** status → class, as the clinic needs it: a time-out resumes, a refusal needs a change. */
const STATUS_TABLE: [number, string, string][] = [
  [400, 'request', 'invalid_request'],
  [401, 'access', 'unauthorized'],
  [402, 'plan', 'plan_limit'],
  [403, 'access', 'forbidden'],
  [404, 'gone', 'not_found'],
  [405, 'request', 'invalid_request'],
  [407, 'network_setup', 'network_setup'],
  [408, 'transient', 'timeout'],
  [409, 'request', 'conflict'],
  [410, 'gone', 'not_found'],
  [411, 'request', 'invalid_request'],
  [413, 'request', 'too_large'],
  [414, 'request', 'invalid_request'],
  [415, 'request', 'invalid_request'],
  [418, 'request', 'invalid_request'],
  [422, 'request', 'invalid_request'],
  [425, 'transient', 'timeout'],
  [429, 'transient', 'rate_limited'],
  [500, 'transient', 'server_error'],
  [501, 'transient', 'server_error'],
  [502, 'transient', 'server_error'],
  [503, 'transient', 'server_error'],
  [504, 'transient', 'timeout'],
  [507, 'transient', 'server_error'],
  [599, 'transient', 'server_error'],
];

const NETWORK_TABLE: [string, string, string][] = [
  ['ETIMEDOUT', 'transient', 'timeout'],
  ['ESOCKETTIMEDOUT', 'transient', 'timeout'],
  ['STALLED', 'transient', 'timeout'],
  ['ECONNRESET', 'transient', 'connection_lost'],
  ['EPIPE', 'transient', 'connection_lost'],
  ['ECONNABORTED', 'transient', 'connection_lost'],
  ['ERR_STREAM_PREMATURE_CLOSE', 'transient', 'connection_lost'],
  ['HPE_INVALID_CONSTANT', 'transient', 'connection_lost'],
  ['ECONNREFUSED', 'unreachable', 'unreachable'],
  ['EHOSTUNREACH', 'unreachable', 'unreachable'],
  ['ENETUNREACH', 'unreachable', 'unreachable'],
  ['ENETDOWN', 'unreachable', 'unreachable'],
  ['ENOTFOUND', 'unreachable', 'name_not_found'],
  ['EAI_AGAIN', 'unreachable', 'name_not_found'],
  ['EAI_FAIL', 'unreachable', 'name_not_found'],
  ['EAI_NONAME', 'unreachable', 'name_not_found'],
  ['ESOMETHINGNEW', 'transient', 'connection_lost'],
];

describe('failure classes', () => {
  it.each(STATUS_TABLE)('HTTP %i is %s (%s)', (status, cls, cause) => {
    expect(statusFailure(status)).toEqual({ class: cls, cause });
  });

  it('lists every status the module names in the table above', () => {
    const tabled = new Set(STATUS_TABLE.map(([s]) => s));
    for (const status of Object.keys(STATUS_CAUSES).map(Number)) expect(tabled).toContain(status);
  });

  it.each(NETWORK_TABLE)('%s is %s (%s)', (code, cls, cause) => {
    expect(networkCodeFailure(code)).toEqual({ class: cls, cause });
  });

  it('lists every network code the module names in the table above', () => {
    const tabled = new Set(NETWORK_TABLE.map(([c]) => c));
    for (const code of Object.keys(NETWORK_CODE_CAUSES)) expect(tabled).toContain(code);
  });

  it.each(STATUS_TABLE)('the API client classes HTTP %i as the table does', (status, cls, cause) => {
    const err = errorFromAnswer({ status, body: undefined, method: 'POST', path: 'exams' });
    expect(apiFailure(err)).toEqual({ class: cls, cause });
    expect(err.transient).toBe(cls === 'transient');
  });

  it('keeps the class when the service names its own code with a time-out status', () => {
    const err = errorFromAnswer({
      status: 504,
      body: { error: { code: 'processing_timeout', message: 'Unpacking the ZIP took longer than 300 s' } },
    });
    expect(err.code).toBe('timeout');
    expect(apiFailure(err)).toEqual({ class: 'transient', cause: 'timeout' });
  });

  it('has words for every cause in Spanish and in English, different in each', () => {
    for (const cause of FAILURE_CAUSES) {
      const f = { class: statusFailure(400).class, cause };
      const es = failureWords(f, 'es');
      const en = failureWords(f, 'en');
      expect(es.length).toBeGreaterThan(20);
      expect(en.length).toBeGreaterThan(20);
      expect(es).not.toBe(en);
    }
    expect(failureWords(statusFailure(408), 'es')).toContain('tardó demasiado');
    expect(failureWords(statusFailure(408), 'en')).toContain('took too long');
    expect(resumes(statusFailure(408))).toBe(true);
    expect(resumes(statusFailure(422))).toBe(false);
  });
});

describe('storage transfers class statuses as the table does', () => {
  const agents = createAgents(2);
  afterAll(() => agents.destroy());

  async function putAgainst(statuses: number[]): Promise<{ attempts: number; error: unknown }> {
    let attempts = 0;
    const server = createServer((req, res) => {
      const status = statuses[attempts] ?? 200;
      attempts += 1;
      req.resume();
      req.once('end', () => res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? '' : 'no'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const payload = Buffer.alloc(1000, 7);
    const error: unknown = await putWithRetry(
      `http://127.0.0.1:${port}/object`,
      { size: payload.length, open: () => Readable.from([payload]) },
      { agents, stallTimeoutMs: 5000, maxAttempts: 4, backoff: { baseMs: 5, capMs: 20 } },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return { attempts, error };
  }

  it.each([408, 504, 503, 429])('a PUT answered %i is repeated and then succeeds', async (status) => {
    const { attempts, error } = await putAgainst([status]);
    expect(error).toBeNull();
    expect(attempts).toBe(2);
  });

  it.each([400, 413, 422])('a PUT answered %i is not repeated', async (status) => {
    const { attempts, error } = await putAgainst([status]);
    expect(error).toBeInstanceOf(TransferError);
    expect((error as TransferError).kind).toBe('rejected');
    expect(attempts).toBe(1);
  });
});
