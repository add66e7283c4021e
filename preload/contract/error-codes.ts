// Every error code the core can report to a front end, in one place: the window translates each
// (`errors.<code>.title/action` in renderer/locales, typed against this list in
// renderer/src/components/error-texts.ts) and the CLI words each in English (main/core/cli/words/error-words.ts).

/** The API client's codes: the service's own, then client-side ones (network, time-out…). */
export const API_ERROR_CODES = [
  'unauthorized',
  'insufficient_scope',
  'forbidden',
  'not_found',
  'thumbnail_not_ready',
  'validation_error',
  'conflict',
  'upload_incomplete',
  'limit_exceeded',
  'plan_required',
  'rate_limited',
  'server_error',
  'network_error',
  'timeout',
  'aborted',
  'invalid_response',
  'http_error',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** The upload engine's codes. */
export const UPLOAD_ERROR_CODES = [
  // Refused before any exam is created.
  'no_files',
  'too_many_files',
  'zip_too_large',
  'name_required',
  'name_too_long',
  'invalid_file_name',
  'duplicate_file_name',
  'file_unreadable',
  // Some files of the study cannot be read whole (cut short, permission denied): nothing was sent.
  'incomplete_study',
  // Found while the job runs.
  'file_changed',
  'rejected',
  'exam_deleted',
  // An extra take the service made but whose answer was lost: it can be neither filled nor removed.
  'take_unfinished',
  'storage_rejected',
  'urls_keep_expiring',
  'incomplete_after_confirm',
  // Not final: the journal is kept and the next run resumes.
  // Another process of this computer is uploading the same study.
  'busy',
  // The disk holding the data folder is full: the job goes on once there is room.
  'disk_full',
  'network',
  'interrupted',
  'cancelled',
] as const;
export type UploadErrorCode = (typeof UPLOAD_ERROR_CODES)[number];

/** The agent's, the keychain's and the transports' own codes. */
export const CORE_ERROR_CODES = [
  'invalid_args',
  'unknown_method',
  'internal',
  'keychain_unavailable',
  'no_key',
  'no_api_url',
  'invalid_api_url',
  'invalid_key',
  'conflict',
  'not_found',
  'files_missing',
  'no_series',
  'folder_exists',
  'folder_not_found',
  'not_a_folder',
  'bad_token',
  'bridge_unreachable',
  // Informed consent at the front desk.
  'not_signed',
  'missing_hyphen',
  'invalid_rut',
  'already_signed',
  'session_ended',
  'consent_not_started',
  'signer_name_required',
  'signer_document_required',
  'signature_blank',
  'signature_invalid',
  // Reports of an exam.
  'report_download_failed',
  'report_not_pdf',
  'report_too_large',
  // Extra takes of an exam.
  'take_not_available',
  'take_limit',
  'no_dicom',
  // A call that is not safe to repeat lost its answer after it may have reached the service: it may
  // have been done, so the window checks before offering to try again.
  'maybe_done',
  // The network on the way to the service (main/core/net/net-failure.ts): said apart from a plain
  // network_error so staff know whom to ask and what for.
  'net_name_not_found',
  'net_unreachable',
  'net_proxy_auth',
  'net_proxy_unreachable',
  'net_cert_untrusted',
  'net_cert_invalid',
  'net_clock_wrong',
  // The extra CA file chosen in Settings → Network.
  'ca_file_unreadable',
  'ca_file_no_certificate',
] as const;

export const ERROR_CODES = [...new Set([...API_ERROR_CODES, ...UPLOAD_ERROR_CODES, ...CORE_ERROR_CODES])];
/** Any code a ContractError may carry. */
export type ErrorCode = ApiErrorCode | UploadErrorCode | (typeof CORE_ERROR_CODES)[number];
