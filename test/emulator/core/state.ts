/** The emulator's persisted state: every record of every account, saved atomically to `--data`. */

export type Plan = 'free' | 'pro' | 'clinica' | 'ultra';

export type Account = {
  id: string;
  email: string;
  plan: Plan;
  clinic_name: string;
  clinic_slug: string;
  storage_limit_bytes: number;
  exam_limit: number;
  created_at: string;
};

export type ApiKeyRecord = {
  key: string;
  account_id: string;
  scopes: string[];
  sandbox: boolean;
  /** Which contract key this is: free, pro, clinica, ultra, sandbox, readonly. */
  label: string;
};

export type StoredFile = {
  name: string;
  size: number;
  /** Object key under the data folder's objects/ directory. */
  object: string;
};

export type ExtraSeries = {
  index: number;
  label: string;
  files: StoredFile[];
  status: 'uploading' | 'ready';
  storage_bytes: number;
  created_at: string;
  confirmed_at: string | null;
};

export type Consent = {
  id: string;
  status: 'pending' | 'signed';
  signing_method: 'in_person' | 'email' | null;
  signed_at: string | null;
  hash: string | null;
  country_code: string;
  locale: string;
  signer_name: string | null;
  signer_rut: string | null;
  patient_birth_date: string | null;
  email_to: string | null;
  /** Patient name given with the e-mail signing request (printed on the document). */
  patient_name: string | null;
  sign_token: string | null;
  /** Object key of the signed PDF, once signed. */
  signed_pdf: string | null;
  created_at: string;
  updated_at: string;
};

export type ReportSignature = { signature_id: string; signed_at: string; verification_url: string };

export type Report = {
  filename: string;
  size_bytes: number;
  object: string;
  sha256: string;
  uploaded_at: string;
  signature: ReportSignature | null;
};

export type Embed = {
  enabled: boolean;
  token: string | null;
  title: string | null;
  show_year: boolean;
  show_study_type: boolean;
  view_count: number;
  enabled_at: string | null;
};

export type Exam = {
  id: string;
  account_id: string;
  /** Created with a sandbox key: visible only to sandbox keys, not counted on the live account. */
  sandbox: boolean;
  name: string;
  exam_type: 'cbct' | 'radiografia' | 'mesh' | 'atm';
  patient_name: string | null;
  patient_id: string | null;
  birth_date: string | null;
  reason: string | null;
  expiration_days: number | null;
  radiograph_subtype: string | null;
  status: 'uploading' | 'ready';
  upload_mode: 'files' | 'zip';
  files: StoredFile[];
  /** Zip mode: the staged archive's declared size and object key. */
  zip: { size: number; object: string } | null;
  share_token: string;
  share_password: string;
  public_page_pin: string;
  pin_rotated_at: string | null;
  extra_series: ExtraSeries[];
  storage_bytes: number;
  counters: { views: number; shares: number; downloads: number };
  embed: Embed;
  thumbnail: { object: string; content_type: string } | null;
  consent: Consent | null;
  report: Report | null;
  created_at: string;
  updated_at: string;
  confirmed_at: string | null;
};

export type Webhook = {
  id: string;
  account_id: string;
  /** Created with a sandbox key: managed only by sandbox keys; sandbox actions emit no events. */
  sandbox: boolean;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  secret: string;
  consecutive_failures: number;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
};

export type Delivery = {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
  next_retry_at: string | null;
};

/** An event still owed to a subscription (persisted so retries survive a restart). */
export type PendingDelivery = {
  webhook_id: string;
  event: ServiceEvent;
  attempt: number;
  due: number;
  /** The service clock's control-API offset when this attempt was scheduled. */
  armed_offset?: number;
};

export type ServiceEvent = { id: string; type: string; created_at: string; data: Record<string, unknown> };

export type Referrer = {
  id: string;
  account_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  specialty: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
};

export type TemplateSlot = { x: number; y: number; w: number; h: number; label?: string };
export type TemplatePage = { name?: string; slots: TemplateSlot[] };
export type Template = {
  id: string;
  /** null for system defaults. */
  account_id: string | null;
  name: string;
  description: string | null;
  is_default: boolean;
  pages: TemplatePage[];
  created_at: string;
  updated_at: string;
};

export type TicketReply = { body: string; created_at: string };
export type Ticket = {
  id: string;
  account_id: string;
  subject: string;
  message: string;
  category: string;
  exam_id: string | null;
  status: 'open' | 'answered' | 'closed';
  replies: TicketReply[];
  created_at: string;
  updated_at: string;
};

export type ActivityEntry = {
  id: string;
  account_id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
};

export type Notification = {
  id: string;
  account_id: string;
  type: string;
  title: string;
  body: string;
  exam_id: string | null;
  read: boolean;
  created_at: string;
  read_at: string | null;
};

export type Mail = {
  id: string;
  account_id: string;
  kind: string;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  attachments: { filename: string; size: number; content_type: string }[];
  exam_id: string | null;
  created_at: string;
};

export type State = {
  version: 1;
  /** Secret for presigned URL signatures; kept so URLs stay valid across restarts. */
  signing_secret: string;
  /** Service-clock offset from control-API advances, in ms; kept so time never runs backwards. */
  clock_offset_ms?: number;
  accounts: Account[];
  keys: ApiKeyRecord[];
  exams: Exam[];
  /** Ids of deleted exams (for idempotent DELETE and 404 on reads). */
  deleted_exam_ids: string[];
  webhooks: Webhook[];
  deliveries: Delivery[];
  pending_deliveries: PendingDelivery[];
  referrers: Referrer[];
  templates: Template[];
  tickets: Ticket[];
  activity: ActivityEntry[];
  notifications: Notification[];
  mail: Mail[];
};
