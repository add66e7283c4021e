import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { COMPRESS_SETTINGS, FOLDER_EXAM_TYPES } from '../../../preload/contract/vocabulary';
import { networkSettingsSchema } from './network-settings';
import { shareRuleSchema } from './share-rule';

/** Version of the settings file layout; bump it and add a migration when the layout changes. */
export const SETTINGS_SCHEMA_VERSION = 2;

/** The default exam-name template: "CBCT Juan Carlos Muñoz 2026-03-02". */
export const DEFAULT_NAME_TEMPLATE = '{type} {patient} {date}';

export const watchFolderSchema = z.object({
  id: z.string().min(1).max(100),
  path: z.string().min(1).max(4096),
  /** `from_dicom`: take the type the DICOM headers suggest. */
  exam_type: z.enum(FOLDER_EXAM_TYPES).default('from_dicom'),
  /** `auto` uploads complete exports at once; `review` waits in the inbox for staff. */
  mode: z.enum(['auto', 'review']).default('review'),
  /** Quiet time before an export counts as complete. */
  settle_seconds: z.number().int().min(1).max(3600).default(30),
  /** Poll instead of file-system events (network shares). */
  polling: z.boolean().default(false),
  /** E-mail every exam from this folder to a fixed address once ready (share-rule.ts); null: no one. */
  share_rule: shareRuleSchema.nullable().optional(),
});
export type WatchFolder = z.infer<typeof watchFolderSchema>;

export const uploadOptionsSchema = z.object({
  concurrency: z.number().int().min(1).max(16).default(4),
  /** 0 = no limit. */
  bandwidth_limit_bytes_per_s: z.number().int().min(0).default(0),
  mode: z.enum(['files', 'zip', 'auto']).default('auto'),
  /** Lossless deflate in zip mode: `auto` only when it shortens the upload (upload/compression-choice.ts). */
  compress: z.enum(COMPRESS_SETTINGS).default('auto'),
});
export type UploadOptions = z.infer<typeof uploadOptionsSchema>;

/** Informed consent: the country (CL asks for the RUT), where signed copies go, the patient's display. */
export const consentSettingsSchema = z.object({
  country_code: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .default('CL'),
  /** Null: the app's data folder. */
  copies_folder: z.string().min(1).max(4096).nullable().default(null),
  /** Null: the first display that is not the main one. */
  display_id: z.number().int().nullable().default(null),
});
export type ConsentSettings = z.infer<typeof consentSettingsSchema>;

/** What the inbox proposes for a new study (version 2; before, a separate preferences file). */
export const inboxPreferencesSchema = z.object({
  // A template with control characters or lone surrogates (a hand-edited file) is refused.
  exam_name_template: z
    .string()
    .min(1)
    .max(200)
    .refine(
      (t) =>
        ![...t].some((ch) => {
          const c = ch.codePointAt(0) ?? 0;
          return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff);
        }),
      'control characters or broken text',
    )
    .default(DEFAULT_NAME_TEMPLATE),
  default_expiration_days: z.number().int().min(1).max(3650).nullable().default(null),
});
export type InboxPreferences = z.infer<typeof inboxPreferencesSchema>;

/**
 * The DICOM listener (a storage SCP scanners send to). An object of its own, so that later rules
 * (e.g. who to share received studies with) can be added beside these fields.
 */
export const dicomListenerSchema = z.object({
  enabled: z.boolean().default(false),
  /** Our AE title: what the scanner's operator types as the destination's AE title. */
  ae_title: z
    .string()
    .regex(/^[\x20-\x5b\x5d-\x7e]{1,16}$/, 'an AE title is 1 to 16 plain characters without a backslash')
    .refine((t) => t.trim() !== '', 'an AE title is not only spaces')
    .default('SCANBRIDGE'),
  port: z.number().int().min(1).max(65535).default(11112),
  /** Seconds without an object of a study (after a released association) before it counts as complete. */
  quiet_seconds: z.number().int().min(1).max(3600).default(30),
  /** Minutes a study cut off by an aborted association waits for a resend before staff are asked. */
  stopped_after_minutes: z.number().int().min(1).max(10080).default(60),
  /** Calling AE titles or IP addresses allowed to send; empty: any sender that calls our AE title. */
  allowed_senders: z.array(z.string().trim().min(1).max(64)).max(50).default([]),
  exam_type: z.enum(FOLDER_EXAM_TYPES).default('from_dicom'),
  mode: z.enum(['auto', 'review']).default('review'),
  /** E-mail every received study's exam to these addresses once it is ready (as a watch folder's rule). */
  share_rule: shareRuleSchema.nullable().optional(),
});
export type DicomListenerSettings = z.infer<typeof dicomListenerSchema>;

export const DEFAULT_DICOM_LISTENER: DicomListenerSettings = dicomListenerSchema.parse({});

/** The patient's printed sheet (handout/handout-pdf.ts): its paper size. */
export const handoutSettingsSchema = z.object({ paper: z.enum(['A4', 'A5']).default('A4') });
export type HandoutSettings = z.infer<typeof handoutSettingsSchema>;

export const apiBaseUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);

export const settingsSchema = z.object({
  schema_version: z.number().int().min(0),
  /** Null until someone sets the service address. */
  api_base_url: apiBaseUrlSchema.nullable().default(null),
  /** Which of the two keys in the keychain is in use. */
  active_key_kind: z.enum(['live', 'sandbox']).default('live'),
  language: z.enum(['es', 'en', 'system']).default('system'),
  watch_folders: z
    .array(watchFolderSchema)
    .max(50)
    .default([])
    .refine((list) => new Set(list.map((f) => f.id)).size === list.length, 'watch folder ids must be unique'),
  upload: uploadOptionsSchema.default({
    concurrency: 4,
    bandwidth_limit_bytes_per_s: 0,
    mode: 'auto',
    compress: 'auto',
  }),
  consent: consentSettingsSchema.default({ country_code: 'CL', copies_folder: null, display_id: null }),
  inbox: inboxPreferencesSchema.default({ exam_name_template: DEFAULT_NAME_TEMPLATE, default_expiration_days: null }),
  dicom_listener: dicomListenerSchema.default(DEFAULT_DICOM_LISTENER),
  handout: handoutSettingsSchema.default({ paper: 'A4' }),
  /** The proxy (its login is in the keychain) and the extra CA file set in Settings → Network. */
  network: networkSettingsSchema.default({ proxy_url: null, ca_file: null }),
});
export type Settings = z.infer<typeof settingsSchema>;

/** A change to the settings: top-level fields replace, `upload` merges. */
export type SettingsPatch = Partial<Omit<Settings, 'schema_version' | 'upload'>> & { upload?: Partial<UploadOptions> };

/** The settings of a fresh install. */
export function defaultSettings(): Settings {
  return settingsSchema.parse({ schema_version: SETTINGS_SCHEMA_VERSION });
}

const KEYS = [
  'api_base_url',
  'active_key_kind',
  'language',
  'watch_folders',
  'upload',
  'consent',
  'inbox',
  'dicom_listener',
  'handout',
  'network',
] as const;

/**
 * Reads settings from untrusted file content field by field: a bad field falls back to its default
 * (a bad watch folder is dropped) and is named in `problems`, so one broken value never loses the
 * rest or stops the app.
 */
export function readSettingsTolerant(raw: Record<string, unknown>): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  const base = defaultSettings();
  const out: Record<string, unknown> = { schema_version: SETTINGS_SCHEMA_VERSION };
  const shape = settingsSchema.shape;
  for (const key of KEYS) {
    const value = raw[key];
    if (key === 'watch_folders' && Array.isArray(value)) {
      const kept: WatchFolder[] = [];
      value.forEach((item, i) => {
        const r = watchFolderSchema.safeParse(item);
        if (r.success && !kept.some((f) => f.id === r.data.id)) kept.push(r.data);
        else problems.push(`watch_folders[${i}]`);
      });
      out[key] = kept;
      continue;
    }
    if (key === 'upload' && typeof value === 'object' && value !== null) {
      const merged: Record<string, unknown> = { ...base.upload };
      for (const [k, field] of Object.entries(uploadOptionsSchema.shape)) {
        const v = (value as Record<string, unknown>)[k];
        const r = field.safeParse(v);
        if (r.success) merged[k] = r.data;
        else problems.push(`upload.${k}`);
      }
      out[key] = merged;
      continue;
    }
    const r = shape[key].safeParse(value);
    if (r.success) out[key] = r.data;
    else {
      problems.push(key);
      out[key] = base[key];
    }
  }
  return { settings: settingsSchema.parse(out), problems };
}

/** A new watch folder with a fresh id and the defaults for whatever is not given. */
export function newWatchFolder(input: { path: string } & Partial<Omit<WatchFolder, 'id' | 'path'>>): WatchFolder {
  return watchFolderSchema.parse({ ...input, id: `wf_${randomUUID()}` });
}
