import type { Plan } from './state';

const GB = 1024 ** 3;

/** Plan limits: requests per hour (API-v1.md §8.1), storage and exam count (our realistic choice). */
export const PLANS: Record<
  Plan,
  { requestsPerHour: number; storageBytes: number; examLimit: number; radiografia: boolean }
> = {
  free: { requestsPerHour: 100, storageBytes: 2 * GB, examLimit: 25, radiografia: false },
  pro: { requestsPerHour: 1000, storageBytes: 200 * GB, examLimit: 2000, radiografia: true },
  clinica: { requestsPerHour: 5000, storageBytes: 1024 * GB, examLimit: 10000, radiografia: true },
  ultra: { requestsPerHour: 10000, storageBytes: 5 * 1024 * GB, examLimit: 100000, radiografia: true },
};

/** Sandbox keys have their own bucket regardless of plan (§8.1). */
export const SANDBOX_REQUESTS_PER_HOUR = 1000;

export const ALL_SCOPES = [
  'exams:read',
  'exams:write',
  'webhooks:write',
  'referrers:read',
  'referrers:write',
  'templates:read',
  'templates:write',
  'support:read',
  'support:write',
  'account:read',
  'account:write',
] as const;
