// The words the window, the core and the service share: exam types, radiograph subtypes, statuses,
// languages. Each list is written here once; the types come from the lists, and zod schemas take the
// lists themselves (`z.enum(EXAM_TYPES)`). Plain constants with no imports, so that the window may
// import these values too without pulling zod or the contract's schemas into its bundle.

/** The window's languages. */
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Exam types of API v1 (`exam_type`). */
export const EXAM_TYPES = ['cbct', 'radiografia', 'mesh', 'atm'] as const;
export type ExamType = (typeof EXAM_TYPES)[number];

/** A watch folder's exam type: a fixed one, or the one suggested by each study's DICOM modality. */
export const FOLDER_EXAM_TYPES = ['from_dicom', ...EXAM_TYPES] as const;
export type FolderExamType = (typeof FOLDER_EXAM_TYPES)[number];

/** Subtypes of a `radiografia` exam (API v1 `radiograph_subtype`). */
export const RADIOGRAPH_SUBTYPES = [
  'panoramica',
  'cefalometrica',
  'periapical',
  'bitewing',
  'oclusal',
  'carpal',
  'atm',
  'otra',
] as const;
export type RadiographSubtype = (typeof RADIOGRAPH_SUBTYPES)[number];

/** A detected study in the inbox: waiting for review, in the upload queue, or uploaded. */
export const INBOX_STATUSES = ['review', 'queued', 'uploaded'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/** An exam's informed consent: never started, started and not signed yet, or signed. */
export const CONSENT_STATUSES = ['none', 'pending', 'signed'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

/** The uploads as a whole, as the tray shows them: nothing to do, uploading, or a job in trouble. */
export const AGENT_STATUSES = ['idle', 'uploading', 'error'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** The connection check's steps, in the order they run (Settings → "Check the connection", `scanbridge doctor`). */
export const CONNECTION_STEPS = ['dns', 'tcp', 'proxy', 'tls', 'api_key', 'storage', 'upload_speed'] as const;
export type ConnectionStep = (typeof CONNECTION_STEPS)[number];

/** How a connection failed, as main/core/net/net-failure.ts classifies it (its comment says what each means). */
export const NET_FAILURE_KINDS = [
  'name_not_found',
  'unreachable',
  'proxy_auth',
  'proxy_unreachable',
  'cert_untrusted',
  'cert_invalid',
  'clock_wrong',
] as const;
export type NetFailureKind = (typeof NET_FAILURE_KINDS)[number];

/** Why a step of the connection check failed: a network failure, or what the key, the account or storage said. */
export type ConnectionProblem =
  | NetFailureKind
  | 'key_rejected'
  | 'key_not_allowed'
  | 'exam_limit'
  | 'service_error'
  | 'storage_refused'
  | 'not_configured';

/** The languages the service writes a share's e-mail in (API v1 `locale`): share rules, the inbox, share-on-ready. */
export const SHARE_LOCALES = ['es', 'en', 'pt'] as const;
export type ShareLocale = (typeof SHARE_LOCALES)[number];

/** Lossless compression in zip mode: automatic (only when it shortens the upload), always, never. */
export const COMPRESS_SETTINGS = ['auto', 'always', 'never'] as const;
export type CompressSetting = (typeof COMPRESS_SETTINGS)[number];
