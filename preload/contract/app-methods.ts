// The app itself, its settings, watched folders, API keys and the account.
import { z } from 'zod';
import { id, method, noArgs } from './method';
import type { AccountView, AppInfo, KeysStatus, Settings } from './types';
import { shareRuleArgs } from './share-rule';
import { COMPRESS_SETTINGS, FOLDER_EXAM_TYPES } from './vocabulary';

const folderExamType = z.enum(FOLDER_EXAM_TYPES);
const keyKind = z.enum(['live', 'sandbox']);

const folderFields = z
  .object({
    path: z.string().min(1).max(4096),
    exam_type: folderExamType,
    mode: z.enum(['auto', 'review']),
    settle_seconds: z.number().int().min(1).max(3600),
    polling: z.boolean(),
  })
  .strict();

// Control characters (NUL, ESC…) and lone surrogates: an exam was once named "\ud800". The core
// checks the same (main/core/dicom/header/clean-text.ts); the window is told at once.
const UNSAFE_TEXT =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const appMethods = {
  'app:info': method<AppInfo>()(noArgs),

  'settings:get': method<Settings>()(noArgs),
  /** Staff have read the damaged-settings notice. */
  'settings:dismiss-damage': method<Settings>()(noArgs),
  'settings:update': method<Settings>()(
    z
      .object({
        language: z.enum(['es', 'en', 'system']).optional(),
        exam_name_template: z
          .string()
          .min(1)
          .max(200)
          .refine(
            (t) => !UNSAFE_TEXT.test(t),
            'the exam-name template must not contain control characters or broken characters',
          )
          .optional(),
        default_expiration_days: z.number().int().min(1).max(3650).nullable().optional(),
        handout_paper: z.enum(['A4', 'A5']).optional(),
        upload: z
          .object({
            concurrency: z.number().int().min(1).max(16).optional(),
            bandwidth_limit: z
              .number()
              .int()
              .min(0)
              .max(10 * 1024 ** 3)
              .optional(),
            mode: z.enum(['files', 'zip', 'auto']).optional(),
            compress: z.enum(COMPRESS_SETTINGS).optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
  ),

  'folders:add': method<Settings>()(folderFields),
  'folders:update': method<Settings>()(
    folderFields.partial().extend({ id, share_rule: shareRuleArgs.nullable().optional() }),
  ),
  'folders:remove': method<Settings>()(z.object({ id }).strict()),
  /** Opens the OS folder picker (desktop only); null when cancelled or unavailable. */
  'folders:pick': method<{ path: string | null }>()(noArgs),

  'keys:status': method<KeysStatus>()(noArgs),
  /** Verifies a pasted key with GET /me without saving it. */
  'keys:verify': method<AccountView>()(z.object({ key: z.string().trim().min(8).max(512) }).strict()),
  /** Verifies, stores in the OS keychain and activates a key; its kind follows its prefix. */
  'keys:save': method<{ status: KeysStatus; account: AccountView }>()(
    z.object({ key: z.string().trim().min(8).max(512) }).strict(),
  ),
  'keys:activate': method<KeysStatus>()(z.object({ kind: keyKind }).strict()),
  'keys:remove': method<KeysStatus>()(z.object({ kind: keyKind }).strict()),

  'account:get': method<AccountView>()(noArgs),
} as const;
