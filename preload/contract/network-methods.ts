// The connection check (Settings → "Check the connection"; the same report as `scanbridge doctor
// --json`): one result per step, the first failure named.
import { method, noArgs } from './method';
import type { ConnectionStep } from './vocabulary';

/** Why a step failed: a network failure, or what the key, the account or storage said. */
export type ConnectionProblem =
  | 'name_not_found'
  | 'unreachable'
  | 'proxy_auth'
  | 'proxy_unreachable'
  | 'cert_untrusted'
  | 'cert_invalid'
  | 'clock_wrong'
  | 'key_rejected'
  | 'key_not_allowed'
  | 'exam_limit'
  | 'service_error'
  | 'storage_refused'
  | 'not_configured';

type StepView = {
  status: 'ok' | 'failed' | 'skipped';
  ms: number | null;
  problem?: ConnectionProblem;
  /** The system code or status behind the problem (for IT), e.g. `UNABLE_TO_VERIFY_LEAF_SIGNATURE`. */
  code?: string;
  /** The problem in English (the window words it from `problem` in its own language). */
  message?: string;
};

export type ConnectionCheckView = {
  ok: boolean;
  failed_step: ConnectionStep | null;
  api_url: string | null;
  checked_at: string;
  dns: StepView & { host: string | null; addresses: string[] };
  tcp: StepView & { target: string | null };
  proxy: StepView & { url: string | null; source: 'env' | 'settings' | 'system' | null };
  tls: StepView & {
    used: boolean;
    issuer: string | null;
    subject: string | null;
    valid_to: string | null;
    protocol: string | null;
    extra_ca_files: string[];
  };
  api_key: StepView & {
    key_kind: 'live' | 'sandbox' | null;
    plan: string | null;
    rate: { limit: number | null; remaining: number | null; reset_at: string | null };
  };
  storage: StepView & { host: string | null; exam_id: string | null; cleaned_up: boolean };
  upload_speed: StepView & { bytes: number; bytes_per_second: number | null };
};

export const networkMethods = {
  /** Runs the connection check now (it takes a few seconds: a test exam is made and deleted). */
  'network:check': method<ConnectionCheckView>()(noArgs),
} as const;
