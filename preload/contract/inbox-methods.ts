// Studies the watchers found, waiting for the front desk (review mode) or already queued.
import { z } from 'zod';
import { examType, id, method, noArgs } from './method';
import type { InboxItem } from './types';
import { SHARE_LOCALES } from './vocabulary';

const inboxFields = z
  .object({
    name: z.string().trim().min(1).max(200),
    patient_name: z.string().max(200),
    patient_id: z.string().max(64),
    birth_date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable(),
    reason: z.string().max(2000),
    exam_type: examType,
    expiration_days: z.number().int().min(1).max(3650).nullable(),
    // Addresses separated by commas; each must be an e-mail address (at most 10).
    share_to: z
      .string()
      .max(3300)
      .refine((v) => {
        const parts = v.split(/[,;\s]+/).filter(Boolean);
        return parts.length <= 10 && parts.every((p) => z.email().safeParse(p).success);
      }, 'must be e-mail addresses separated by commas (at most 10)'),
    share_locale: z.enum(SHARE_LOCALES),
  })
  .strict();

/**
 * A copy of a study already uploaded, found again in a watched folder (or sent again to the
 * listener): no second exam was made; `exam_id` is the exam it went up as.
 */
export type SkippedCopyView = {
  study_uid: string;
  folder_id: string | null;
  export_path: string;
  exam_id: string;
  /** `uploaded_elsewhere`: another computer uploaded it (the share's done marker says so). */
  reason: 'already_uploaded' | 'uploaded_elsewhere';
  seen_at: string;
};

export const inboxMethods = {
  /** Copies of already uploaded studies found lately (also pushed as `inbox:copies`). */
  'inbox:copies': method<SkippedCopyView[]>()(noArgs),
  'inbox:copy-dismiss': method<SkippedCopyView[]>()(
    z.object({ study_uid: z.string().min(1).max(128), export_path: z.string().min(1).max(4096) }).strict(),
  ),
  'inbox:list': method<InboxItem[]>()(noArgs),
  'inbox:update': method<InboxItem>()(
    z
      .object({
        id,
        fields: inboxFields.partial().optional(),
        excluded_series: z.array(z.string().max(128)).max(1000).optional(),
      })
      .strict(),
  ),
  // allow_incomplete: staff confirmed uploading a study without the files that cannot be read whole.
  'inbox:upload': method<{ job_id: string }>()(z.object({ id, allow_incomplete: z.boolean().optional() }).strict()),
  'inbox:dismiss': method<{ ok: true }>()(z.object({ id }).strict()),
} as const;
