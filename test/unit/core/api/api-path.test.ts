// The one helper that builds every API path: each segment is percent-encoded, so no value given by a
// caller can add a segment, a query or a fragment, and the dot segments a URL would resolve to
// another route (and empty segments) are refused before any request is sent.
import { describe, expect, it } from 'vitest';
import { apiPath } from '@main/core/api/http/http';
import { ApiError } from '@main/core/api/http/api-errors';

function refused(...segments: (string | number)[]): ApiError {
  try {
    apiPath(...segments);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error(`apiPath(${JSON.stringify(segments)}) was accepted`);
}

describe('apiPath', () => {
  it('joins and encodes segments', () => {
    expect(apiPath('exams')).toBe('exams');
    expect(apiPath('exams', 'ex_1', 'extras', 2, 'confirm')).toBe('exams/ex_1/extras/2/confirm');
    expect(apiPath('support', 'tickets', 'a/b')).toBe('support/tickets/a%2Fb');
    expect(apiPath('exams', 'x?y=1#z')).toBe('exams/x%3Fy%3D1%23z');
    expect(apiPath('exams', '%2e%2e')).toBe('exams/%252e%252e');
    expect(apiPath('exams', 'a b\u0000')).toBe('exams/a%20b%00');
    expect(apiPath('exams', '...')).toBe('exams/...');
  });

  it('refuses empty and dot segments, as a validation error that never reached the service', () => {
    for (const bad of ['', '.', '..']) {
      const e = refused('exams', bad, 'consent');
      expect(e.code).toBe('validation_error');
      expect(e.mayHaveReachedService).toBe(false);
      expect(e.details[0]?.field).toBe('id');
    }
  });

  it('keeps every built path below the base URL and in its own segments', () => {
    const base = 'http://127.0.0.1:1/api/v1/';
    for (const id of ['a/b', '../me', 'x?limit=1', '#frag', '%2e%2e', '..%2f', '\\..\\x']) {
      const url = new URL(apiPath('exams', id, 'consent'), base);
      expect(url.pathname.startsWith('/api/v1/exams/')).toBe(true);
      expect(url.pathname.endsWith('/consent')).toBe(true);
      expect(url.pathname.split('/')).toHaveLength(6);
      expect(url.search).toBe('');
      expect(url.hash).toBe('');
    }
  });
});
