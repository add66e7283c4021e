import { z } from 'zod';
import { badRequest } from './http';

/** Parses `value` with `schema`, turning zod issues into a 400 validation_error with field details. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what = 'Request body'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({
    field: i.path.length ? i.path.map(String).join('.') : 'body',
    message: i.message,
  }));
  throw badRequest(`${what} is invalid: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, details);
}

/** A body that must be a JSON object; an absent body counts as `{}`. */
export function objectBody(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('Request body must be a JSON object', [{ field: 'body', message: 'expected an object' }]);
  }
  return value as Record<string, unknown>;
}

/** A calendar-valid YYYY-MM-DD date. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a real calendar date');

export const email = z
  .string()
  .trim()
  .max(254)
  .regex(/^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/, 'not a valid e-mail address');

/** Query integer with bounds: absent → default; not an integer or out of range → 400. */
export function queryInt(q: URLSearchParams, name: string, def: number, min: number, max: number): number {
  const raw = q.get(name);
  if (raw === null || raw === '') return def;
  if (!/^-?\d+$/.test(raw))
    throw badRequest(`${name} must be an integer`, [{ field: name, message: 'expected an integer' }]);
  const n = Number(raw);
  if (n < min || n > max)
    throw badRequest(`${name} must be between ${min} and ${max}`, [
      { field: name, message: `expected ${min}..${max}` },
    ]);
  return n;
}

export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const raw = q.get(name);
  if (raw === null || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw badRequest(`${name} must be true or false`, [{ field: name, message: 'expected a boolean' }]);
}
