import { describe, expect, it } from 'vitest';
import {
  type ApiClientError,
  ConflictError,
  errorFromAnswer,
  ForbiddenError,
  HttpError,
  InsufficientScopeError,
  LimitExceededError,
  NotFoundError,
  PlanRequiredError,
  RateLimitedError,
  ServerError,
  ThumbnailNotReadyError,
  UnauthorizedError,
  UploadIncompleteError,
  ValidationError,
} from '../../../../main/core/api/errors';

const body = (code: string, extra: Record<string, unknown> = {}) => ({ error: { code, message: `service says ${code}`, ...extra } });

describe('errorFromAnswer', () => {
  it('maps every documented code to its class, keeping the service text apart from the shown message', () => {
    const cases: [number, string, new (...a: never[]) => ApiClientError][] = [
      [401, 'unauthorized', UnauthorizedError],
      [403, 'insufficient_scope', InsufficientScopeError],
      [403, 'plan_required', PlanRequiredError],
      [404, 'not_found', NotFoundError],
      [404, 'thumbnail_not_ready', ThumbnailNotReadyError],
      [400, 'validation_error', ValidationError],
      [409, 'conflict', ConflictError],
      [409, 'upload_incomplete', UploadIncompleteError],
      [409, 'limit_exceeded', LimitExceededError],
      [400, 'limit_exceeded', LimitExceededError],
      [429, 'rate_limited', RateLimitedError],
      [500, 'internal_error', ServerError],
    ];
    for (const [status, code, cls] of cases) {
      const err = errorFromAnswer({ status, body: body(code, { retry_after_seconds: 7 }), method: 'GET', path: 'me' });
      expect(err, code).toBeInstanceOf(cls);
      expect(err.status).toBe(status);
      expect(err.serviceCode).toBe(code);
      expect(err.serviceMessage).toBe(`service says ${code}`);
      expect(err.message).not.toContain('service says');
      expect(err.message).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('uses the stable API code as the error code, and client codes for server failures', () => {
    expect(errorFromAnswer({ status: 403, body: body('insufficient_scope') }).code).toBe('insufficient_scope');
    expect(errorFromAnswer({ status: 503, body: undefined }).code).toBe('server_error');
    expect(errorFromAnswer({ status: 418, body: undefined }).code).toBe('http_error');
  });

  it('falls back to the HTTP status when the body is not the error shape', () => {
    expect(errorFromAnswer({ status: 401, body: '<html>' })).toBeInstanceOf(UnauthorizedError);
    expect(errorFromAnswer({ status: 403, body: {} })).toBeInstanceOf(ForbiddenError);
    expect(errorFromAnswer({ status: 404, body: undefined })).toBeInstanceOf(NotFoundError);
    expect(errorFromAnswer({ status: 409, body: { error: 'x' } })).toBeInstanceOf(ConflictError);
    expect(errorFromAnswer({ status: 422, body: undefined })).toBeInstanceOf(ValidationError);
    expect(errorFromAnswer({ status: 502, body: undefined })).toBeInstanceOf(ServerError);
    expect(errorFromAnswer({ status: 405, body: body('method_not_allowed') })).toBeInstanceOf(HttpError);
  });

  it('carries validation details, the missing scope and the missing files', () => {
    const v = errorFromAnswer({ status: 400, body: body('validation_error', { details: [{ field: 'name', message: 'required' }, { field: 'birth_date', message: 'bad' }] }) });
    expect(v).toBeInstanceOf(ValidationError);
    expect((v as ValidationError).details).toEqual([{ field: 'name', message: 'required' }, { field: 'birth_date', message: 'bad' }]);
    expect(v.message).toContain('name, birth_date');
    const s = errorFromAnswer({ status: 403, body: body('insufficient_scope', { required_scope: 'exams:write' }) });
    expect((s as InsufficientScopeError).requiredScope).toBe('exams:write');
    const u = errorFromAnswer({ status: 409, body: body('upload_incomplete', { missing: ['a.dcm', 'b.dcm'] }) });
    expect((u as UploadIncompleteError).missing).toEqual(['a.dcm', 'b.dcm']);
    expect(u).toBeInstanceOf(ConflictError);
  });

  it('tolerates malformed details instead of failing', () => {
    const v = errorFromAnswer({ status: 400, body: body('validation_error', { details: 'oops' }) });
    expect(v).toBeInstanceOf(ValidationError);
    expect((v as ValidationError).details).toEqual([]);
  });

  it('takes the wait of a 429 from Retry-After first, then from the body', () => {
    const fromHeader = errorFromAnswer({ status: 429, body: body('rate_limited', { retry_after_seconds: 30 }), retryAfterSeconds: 12 });
    expect((fromHeader as RateLimitedError).retryAfterSeconds).toBe(12);
    const fromBody = errorFromAnswer({ status: 429, body: body('rate_limited', { retry_after_seconds: 30 }) });
    expect((fromBody as RateLimitedError).retryAfterSeconds).toBe(30);
    expect(fromBody.message).toBe('Too many requests to the service. Try again in 30 seconds.');
    const long = errorFromAnswer({ status: 429, body: body('rate_limited', { retry_after_seconds: 1800 }) });
    expect(long.message).toContain('30 minutes');
  });

  it('marks only waiting-type failures as transient', () => {
    expect(errorFromAnswer({ status: 500, body: undefined }).transient).toBe(true);
    expect(errorFromAnswer({ status: 429, body: body('rate_limited') }).transient).toBe(true);
    expect(errorFromAnswer({ status: 404, body: body('thumbnail_not_ready') }).transient).toBe(true);
    expect(errorFromAnswer({ status: 400, body: body('validation_error') }).transient).toBe(false);
    expect(errorFromAnswer({ status: 401, body: body('unauthorized') }).transient).toBe(false);
  });
});
