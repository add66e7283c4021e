// Building blocks shared by every domain module of the contract: the `method` declarator and the
// small schemas several domains use. Each domain module (app-methods.ts, inbox-methods.ts, …) exports its slice of
// the method map; index.ts only combines the slices.
import { z } from 'zod';
import { EXAM_TYPES } from './vocabulary';

/** Declares a method: its argument schema and (as a phantom) its result type. */
export const method =
  <R>() =>
  <A extends z.ZodType>(args: A) => ({ args, result: undefined as unknown as R });

export const examType = z.enum(EXAM_TYPES);
/**
 * Every id a method takes (an exam, a webhook, a ticket, a queued upload, a watch folder…), checked
 * here once for the whole contract: ids are short tokens of URL-safe characters, so none can leave
 * its place in an API path (no `/`, `?`, `#`, `%`, space or control character) and the dot segments
 * `.` and `..`, which a URL resolves to another route, are refused.
 */
export const id = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._~-]+$/, 'not an id: only letters, digits and . _ ~ -')
  .refine((v) => v !== '.' && v !== '..', 'not an id: a dot segment');
export const noArgs = z.object({}).strict();
