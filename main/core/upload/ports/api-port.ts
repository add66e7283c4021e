// Adapter from the API v1 client (main/core/api) to the engine's ExamsPort.
import { type ApiClient, ApiError } from '../../api';
import type { Exam } from '../../api';
import { type CallOptions, type CreatedExam, type ExamSummary, type ExamsPort, ExamsPortError } from './ports';

/** The engine's view of the exams endpoints, on top of the API client. */
export function examsPortFromClient(
  client: Pick<ApiClient, 'exams'> & Partial<Pick<ApiClient, 'serviceClock'>>,
): ExamsPort {
  const exams = client.exams;
  // The client is the one retry layer: it waits out 429s and retries transient faults of
  // idempotent calls, and tells the engine each time (which tells the user).
  const opts = (o?: CallOptions) => ({
    ...(o?.signal ? { signal: o.signal } : {}),
    ...(o?.onRetry ? { onRetry: o.onRetry } : {}),
    onRateLimit: 'wait' as const,
  });
  return {
    createExam: (input, o) =>
      call(async () => {
        const c = await exams.create(input, opts(o));
        const out: CreatedExam = { id: c.id, created_at: c.created_at ?? new Date().toISOString() };
        if (c.upload_urls)
          out.upload_urls = c.upload_urls.map((u) => ({ name: u.name, url: u.url, expires_at: u.expires_at ?? '' }));
        if (c.upload_url) out.upload_url = { url: c.upload_url.url, expires_at: c.upload_url.expires_at ?? '' };
        return out;
      }),
    confirmExam: (id, o) => call(async () => summary(await exams.confirm(id, opts(o)))),
    processZip: (id, o) => call(async () => summary(await exams.processZip(id, opts(o)))),
    deleteExam: (id, o) =>
      call(async () => {
        await exams.remove(id, opts(o));
      }),
    getExam: async (id, o) => {
      try {
        return await call(async () => summary(await exams.get(id, opts(o))));
      } catch (err) {
        if (err instanceof ExamsPortError && err.kind === 'not_found') return null;
        throw err;
      }
    },
    listRecentExams: (limit, o) =>
      call(async () => (await exams.list({ limit: Math.min(100, Math.max(1, limit)) }, opts(o))).exams.map(summary)),
    serviceOffsetMs: () => client.serviceClock?.offsetMs() ?? null,
  };
}

function summary(e: Exam): ExamSummary {
  return {
    id: e.id,
    name: e.name ?? '',
    status: e.status ?? '',
    patient_id: e.patient_id ?? null,
    file_count: e.file_count ?? null,
    upload_mode: e.upload_mode ?? null,
    created_at: e.created_at ?? '',
  };
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toPortError(err);
  }
}

/** Maps the client's errors onto what the engine distinguishes. */
export function toPortError(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.code === 'aborted') return err;
  const details = { status: err.status, code: err.serviceCode ?? err.code };
  switch (err.code) {
    case 'rate_limited':
      return new ExamsPortError(
        'rate_limited',
        err.message,
        { ...details, retryAfterSeconds: err.retryAfterSeconds },
        { cause: err },
      );
    case 'upload_incomplete':
      return new ExamsPortError('upload_incomplete', err.message, { ...details, missing: err.missing }, { cause: err });
    case 'not_found':
      return new ExamsPortError('not_found', err.message, details, { cause: err });
    // A 2xx with an unexpected body may still have carried the request out: treat it as unknown outcome.
    case 'server_error':
    case 'network_error':
    case 'timeout':
    case 'invalid_response':
      return new ExamsPortError('transient', err.message, details, { cause: err });
    default:
      return new ExamsPortError('rejected', err.message, details, { cause: err });
  }
}
