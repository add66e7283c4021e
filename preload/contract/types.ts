/** Shapes exchanged between the window and the core. Plain data only (structured-clone and JSON safe). */
import type { IncompleteFileView } from './types-completeness';
import type { ConsentSettings } from './types-consent';
import type { ReceivedFromView } from './receive-methods';
import type { ShareRuleView } from './share-rule';
import type {
  CompressSetting,
  ExamType,
  FolderExamType,
  InboxStatus,
  Language,
  NetFailureKind,
  ShareLocale,
} from './vocabulary';

export type { ShareRuleView } from './share-rule';

export type LanguageSetting = Language | 'system';
export type UploadMode = 'files' | 'zip' | 'auto';
export type KeyKind = 'live' | 'sandbox';

export type WatchFolder = {
  id: string;
  path: string;
  exam_type: FolderExamType;
  /** auto: upload complete exports at once; review: wait in the inbox for the front desk. */
  mode: 'auto' | 'review';
  settle_seconds: number;
  /** Poll instead of native events (network shares). */
  polling: boolean;
  /** Every ready exam from this folder is e-mailed to these addresses (share-on-ready); null: to no one. */
  share_rule: ShareRuleView | null;
  /** Since when the folder cannot be reached (a share dropped, renamed away); absent or null while it can. */
  unreachable_since?: string | null;
};

export type UploadOptions = {
  concurrency: number;
  /** Bytes per second; 0 means no limit. */
  bandwidth_limit: number;
  mode: UploadMode;
  compress: CompressSetting;
};

export type Settings = {
  language: LanguageSetting;
  api_base_url: string;
  active_key: KeyKind | null;
  watch_folders: WatchFolder[];
  upload: UploadOptions;
  /** Template for the exam name proposed in the inbox, e.g. "{type} {patient} {date}". */
  exam_name_template: string;
  /** Default days until an exam expires; null means never. */
  default_expiration_days: number | null;
  consent: ConsentSettings;
  /** Paper of the patient's printed sheet. */
  handout_paper: 'A4' | 'A5';
  /** The settings file was found damaged (until staff dismiss the notice); absent or null when not. */
  damage?: SettingsDamageView | null;
};

/** A damaged settings file: set aside, and the last good copy put back (`restored`) or defaults. */
export type SettingsDamageView = {
  /** When it was found (ISO time). */
  at: string;
  /** The damaged file, set aside. */
  set_aside: string;
  /** True when the last good copy was put back; false when the settings started from their defaults. */
  restored: boolean;
  /** When the restored copy was saved (ISO time), if restored. */
  copy_of: string | null;
};

export type AppInfo = {
  version: string;
  /** How the window talks to the core. */
  transport: 'ipc' | 'http';
  platform: string;
  system_language: Language;
};

export type KeychainState =
  | { available: true }
  | {
      available: false;
      reason: 'no_dbus' | 'no_daemon' | 'timeout' | 'locked' | 'no_module' | 'error';
      message: string;
    };

export type KeySlot = {
  present: boolean;
  /** Last four characters, for recognition. */
  hint: string | null;
  /** Held in memory for this session only (no keychain service): it is forgotten when the app quits. */
  session_only: boolean;
};

export type KeysStatus = {
  keychain: KeychainState;
  live: KeySlot;
  sandbox: KeySlot;
  active: KeyKind | null;
};

export type RateState = {
  limit: number | null;
  remaining: number | null;
  reset_at: string | null;
  updated_at: string | null;
};

export type AccountView = {
  user_id: string;
  email: string;
  plan: string;
  scopes: string[];
  storage: { used_bytes: number; limit_bytes: number; used_percent: number };
  exams: { count: number; limit: number };
  sandbox: boolean;
  rate: RateState;
  /** This computer's clock less the service's (ms, from its Date header); null when not known yet. */
  clock_skew_ms?: number | null;
};

export type StudyWarning =
  | 'missing_patient_name'
  | 'missing_patient_id'
  | 'missing_birth_date'
  | 'future_birth_date'
  | 'several_patients'
  | 'unknown_modality'
  | 'already_uploaded'
  | 'already_uploaded_changed'
  | 'skipped_files'
  /** The birth date is after the study date. */
  | 'birth_after_study'
  /** Names did not decode with the declared character set: check accents and ñ. */
  | 'charset_fallback';

export type InboxSeries = {
  series_uid: string;
  modality: string;
  description: string | null;
  files: number;
  bytes: number;
  excluded: boolean;
};

export type InboxFields = {
  name: string;
  patient_name: string;
  patient_id: string;
  birth_date: string | null;
  reason: string;
  exam_type: ExamType;
  expiration_days: number | null;
  /** E-mail the exam to these addresses once ready (comma-separated; '' for nobody): share-on-ready. */
  share_to: string;
  /** The language of that e-mail. */
  share_locale: ShareLocale;
};

export type InboxItem = {
  id: string;
  folder_id: string | null;
  export_path: string;
  study_uid: string;
  detected_at: string;
  study_date: string | null;
  modality: string;
  description: string | null;
  fields: InboxFields;
  series: InboxSeries[];
  files: number;
  bytes: number;
  skipped: number;
  warnings: StudyWarning[];
  /** Files of the study that cannot be read whole; while any, it is uploaded only when staff confirm. */
  incomplete?: IncompleteFileView[];
  status: InboxStatus;
  job_id: string | null;
  /** Set for a study a scanner sent to the DICOM listener (rather than found in a folder). */
  received_from?: ReceivedFromView;
};

export type UploadPhase =
  'queued' | 'planning' | 'creating' | 'uploading' | 'confirming' | 'paused' | 'ready' | 'failed' | 'cancelled';

export type UploadCompressionView = {
  state: 'compressing' | 'sending';
  study_bytes: number;
  study_bytes_done: number;
  /** How many times smaller (study bytes / compressed bytes so far); null before any. */
  ratio: number | null;
};

/** A network failure as main/core/net/net-failure.ts classifies it: its kind, system code, host and proxy. */
export type NetFailure = {
  kind: NetFailureKind;
  code: string;
  host: string;
  proxy: string | null;
};

export type UploadJobView = {
  id: string;
  inbox_id: string | null;
  name: string;
  patient_name: string;
  exam_type: ExamType;
  phase: UploadPhase;
  mode: 'files' | 'zip';
  exam_id: string | null;
  viewer_url: string | null;
  bytes_total: number;
  bytes_sent: number;
  files_total: number;
  files_done: number;
  /** Bytes per second, smoothed. */
  rate: number;
  eta_seconds: number | null;
  /**
   * A stable code the UI translates, plus the technical detail; `net` when a network failure that
   * is understood stopped it (the proxy's login, a certificate, DNS…), so each front end can say it
   * in its own language.
   */
  error: { code: string; message: string; net?: NetFailure } | null;
  /** Set when the job adds an extra take to an existing exam rather than creating one. */
  extra_take?: { exam_id: string; exam_name: string; label: string } | null;
  /** Set while a job that failed on a network fault waits to retry by itself (phase 'failed'): when it will. */
  retry_at: string | null;
  /**
   * Compressed zip mode (lossless): compressing the study, then sending the smaller archive. While
   * sending, bytes_sent/bytes_total count the archive on the wire.
   */
  compression?: UploadCompressionView | null;
  created_at: string;
  updated_at: string;
};
