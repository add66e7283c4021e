import { describe, expect, it } from 'vitest';
import { ApiError, errorFromAnswer } from '@main/core/api/http/api-errors';
import { apiErrorText } from '@main/core/cli/words/error-words';

const body = (code: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message: `service says ${code}`, ...extra },
});

describe('errorFromAnswer', () => {
  it('maps every documented code to one ApiError with that code and status, keeping the service text out of the message', () => {
    const cases: [number, string][] = [
      [401, 'unauthorized'],
      [403, 'insufficient_scope'],
      [403, 'plan_required'],
      [404, 'not_found'],
      [404, 'thumbnail_not_ready'],
      [400, 'validation_error'],
      [409, 'conflict'],
      [409, 'upload_incomplete'],
      [409, 'limit_exceeded'],
      [400, 'limit_exceeded'],
      [429, 'rate_limited'],
      [500, 'server_error'],
    ];
    for (const [status, code] of cases) {
      const sent = code === 'server_error' ? 'internal_error' : code;
      const err = errorFromAnswer({ status, body: body(sent, { retry_after_seconds: 7 }), method: 'GET', path: 'me' });
      expect(err, code).toBeInstanceOf(ApiError);
      expect(err.code).toBe(code);
      expect(err.status).toBe(status);
      expect(err.serviceCode).toBe(sent);
      expect(err.serviceMessage).toBe(`service says ${sent}`);
      expect(err.message).not.toContain('service says');
      expect(err.message).toBe(`${code} (HTTP ${status}) GET me`);
    }
  });

  it('uses the stable API code as the error code, and client codes for server failures', () => {
    expect(errorFromAnswer({ status: 403, body: body('insufficient_scope') }).code).toBe('insufficient_scope');
    expect(errorFromAnswer({ status: 503, body: undefined }).code).toBe('server_error');
    expect(errorFromAnswer({ status: 418, body: undefined }).code).toBe('http_error');
  });

  it('falls back to the HTTP status when the body is not the error shape', () => {
    expect(errorFromAnswer({ status: 401, body: '<html>' })).toMatchObject({ code: 'unauthorized' });
    expect(errorFromAnswer({ status: 403, body: {} })).toMatchObject({ code: 'forbidden' });
    expect(errorFromAnswer({ status: 404, body: undefined })).toMatchObject({ code: 'not_found' });
    expect(errorFromAnswer({ status: 409, body: { error: 'x' } })).toMatchObject({ code: 'conflict' });
    expect(errorFromAnswer({ status: 422, body: undefined })).toMatchObject({ code: 'validation_error' });
    expect(errorFromAnswer({ status: 502, body: undefined })).toMatchObject({ code: 'server_error' });
    expect(errorFromAnswer({ status: 405, body: body('method_not_allowed') })).toMatchObject({ code: 'http_error' });
  });

  it('carries validation details, the missing scope and the missing files', () => {
    const v = errorFromAnswer({
      status: 400,
      body: body('validation_error', {
        details: [
          { field: 'name', message: 'required' },
          { field: 'birth_date', message: 'bad' },
        ],
      }),
    });
    expect(v).toMatchObject({ code: 'validation_error' });
    expect((v as ApiError).details).toEqual([
      { field: 'name', message: 'required' },
      { field: 'birth_date', message: 'bad' },
    ]);
    expect(apiErrorText(v)).toContain('name, birth_date');
    const s = errorFromAnswer({ status: 403, body: body('insufficient_scope', { required_scope: 'exams:write' }) });
    expect((s as ApiError).requiredScope).toBe('exams:write');
    const u = errorFromAnswer({ status: 409, body: body('upload_incomplete', { missing: ['a.dcm', 'b.dcm'] }) });
    expect((u as ApiError).missing).toEqual(['a.dcm', 'b.dcm']);
    expect(u).toMatchObject({ code: 'upload_incomplete', status: 409 });
  });

  it('tolerates malformed details instead of failing', () => {
    const v = errorFromAnswer({ status: 400, body: body('validation_error', { details: 'oops' }) });
    expect(v).toMatchObject({ code: 'validation_error' });
    expect((v as ApiError).details).toEqual([]);
  });

  it('takes the wait of a 429 from Retry-After first, then from the body', () => {
    const fromHeader = errorFromAnswer({
      status: 429,
      body: body('rate_limited', { retry_after_seconds: 30 }),
      retryAfterSeconds: 12,
    });
    expect((fromHeader as ApiError).retryAfterSeconds).toBe(12);
    const fromBody = errorFromAnswer({ status: 429, body: body('rate_limited', { retry_after_seconds: 30 }) });
    expect((fromBody as ApiError).retryAfterSeconds).toBe(30);
    expect(apiErrorText(fromBody)).toBe('Too many requests to the service. Try again in 30 seconds.');
    const long = errorFromAnswer({ status: 429, body: body('rate_limited', { retry_after_seconds: 1800 }) });
    expect(apiErrorText(long)).toContain('30 minutes');
  });

  it('marks only waiting-type failures as transient', () => {
    expect(errorFromAnswer({ status: 500, body: undefined }).transient).toBe(true);
    expect(errorFromAnswer({ status: 429, body: body('rate_limited') }).transient).toBe(true);
    expect(errorFromAnswer({ status: 404, body: body('thumbnail_not_ready') }).transient).toBe(true);
    expect(errorFromAnswer({ status: 400, body: body('validation_error') }).transient).toBe(false);
    expect(errorFromAnswer({ status: 401, body: body('unauthorized') }).transient).toBe(false);
  });
});
