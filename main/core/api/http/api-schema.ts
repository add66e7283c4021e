import { z } from 'zod';

// The service may add fields at any time and may omit fields the spec does not promise: every
// response object is loose (unknown keys kept) and only the spec's guarantees are required.

/** A string the spec does not guarantee (absent or null both read as missing). */
export const optString = z.string().nullish();
/** A number the spec does not guarantee. */
export const optNumber = z.number().nullish();
/** A boolean the spec does not guarantee. */
export const optBoolean = z.boolean().nullish();

/** A presigned upload URL for one file. */
export const uploadUrlSchema = z.looseObject({
  name: z.string(),
  url: z.string(),
  expires_at: optString,
});
export type UploadUrl = z.infer<typeof uploadUrlSchema>;

/** The answer of a delete: `{deleted: true, …}`, `already_deleted` when it was already gone. */
export const deletedSchema = z.looseObject({
  deleted: z.boolean().optional(),
  already_deleted: optBoolean,
});
export type Deleted = z.infer<typeof deletedSchema>;

/** Limit/offset paging of a list call. */
export type PageQuery = { limit?: number; offset?: number };
