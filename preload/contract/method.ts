// Building blocks shared by every domain module of the contract: the `method` declarator and the
// small schemas several domains use. Each domain module (app-methods.ts, inbox-methods.ts, …) exports its slice of
// the method map; index.ts only combines the slices.
import { z } from 'zod';
import { EXAM_TYPES } from './vocabulary';

/** Declares a method: its argument schema and (as a phantom) its result type. */
export const method = <R>() => <A extends z.ZodType>(args: A) => ({ args, result: undefined as unknown as R });

export const examType = z.enum(EXAM_TYPES);
export const id = z.string().min(1).max(200);
export const noArgs = z.object({}).strict();
