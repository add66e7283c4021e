import type { App } from '../core/app';
import { PLANS, SANDBOX_REQUESTS_PER_HOUR } from '../core/plans';

/** GET /me (API-v1.md §2.1, §4.1). Any valid key may call it: it is how a key is verified. */
export function register(app: App): void {
  app.api.add('GET', '/me', { scope: null }, ({ auth, res }) => {
    const { account, key } = auth;
    const exams = app.store.state.exams.filter((e) => e.account_id === account.id && !e.sandbox);
    const used = exams.reduce((s, e) => s + e.storage_bytes, 0);
    return {
      body: {
        user_id: account.id,
        email: account.email,
        plan: account.plan,
        clinic_name: account.clinic_name,
        clinic_slug: account.clinic_slug,
        scopes: [...key.scopes],
        key_type: key.sandbox ? 'sandbox' : 'live',
        test_mode: key.sandbox,
        storage: {
          used_bytes: used,
          limit_bytes: account.storage_limit_bytes,
          used_percent: Math.round((used / account.storage_limit_bytes) * 10000) / 100,
        },
        exams: { count: exams.length, limit: account.exam_limit },
        rate_limit: {
          limit: key.sandbox ? SANDBOX_REQUESTS_PER_HOUR : PLANS[account.plan].requestsPerHour,
          remaining: Number(res.getHeader('X-RateLimit-Remaining') ?? 0),
          reset: Number(res.getHeader('X-RateLimit-Reset') ?? 0),
        },
      },
    };
  });
}
