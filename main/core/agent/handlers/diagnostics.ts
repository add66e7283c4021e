// The diagnostics summary a support ticket may carry. Support needs the app's version, the system,
// how ScanBridge is set up and which upload errors keep happening; it must never receive a key,
// a patient's data or a folder path (scanner export folders are often named after patients). So the
// summary is built from an allow-list of fields, never by copying the settings object.
import type { Diagnostics, UploadJobView } from '../../../../preload/contract';
import type { Settings as StoredSettings } from '../../settings';

export type DiagnosticsInput = {
  appVersion: string;
  os: { platform: string; release: string; arch: string };
  nodeVersion: string;
  transport: 'ipc' | 'http' | 'cli';
  settings: StoredSettings;
  /** Whether a live or a sandbox key is in use (never the key itself). */
  activeKey: 'live' | 'sandbox' | null;
  jobs: readonly UploadJobView[];
};

/** Only the scheme and host of the service address (a URL may carry a user and password). */
function serviceHost(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'invalid';
  }
}

/** Builds the summary the user reviews before it is appended to a ticket. */
export function buildDiagnostics(input: DiagnosticsInput): Diagnostics {
  const s = input.settings;
  const folders = s.watch_folders;
  const settings: Diagnostics['settings'] = {
    language: s.language,
    service: serviceHost(s.api_base_url),
    key_in_use: input.activeKey,
    upload_mode: s.upload.mode,
    upload_concurrency: s.upload.concurrency,
    bandwidth_limit_bytes_per_s: s.upload.bandwidth_limit_bytes_per_s,
    watch_folders: folders.length,
    watch_folders_auto: folders.filter((f) => f.mode === 'auto').length,
    watch_folders_polling: folders.filter((f) => f.polling).length,
    watch_folder_exam_types: [...new Set(folders.map((f) => f.exam_type))].sort().join(',') || null,
  };
  const counts = new Map<string, number>();
  for (const j of input.jobs)
    if (j.error && /^[a-z_]+$/.test(j.error.code)) counts.set(j.error.code, (counts.get(j.error.code) ?? 0) + 1);
  const upload_errors = [...counts]
    .map(([code, count]) => ({ code, count }))
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  const os = `${input.os.platform} ${input.os.release} (${input.os.arch})`;
  const text = [
    '--- ScanBridge diagnostics ---',
    `app: ${input.appVersion} (${input.transport}), node ${input.nodeVersion}`,
    `os: ${os}`,
    ...Object.entries(settings).map(([k, v]) => `${k}: ${v === null ? '-' : String(v)}`),
    `upload_errors: ${upload_errors.length ? upload_errors.map((e) => `${e.code}×${e.count}`).join(', ') : 'none'}`,
  ].join('\n');
  return { app_version: input.appVersion, os, transport: input.transport, settings, upload_errors, text };
}
