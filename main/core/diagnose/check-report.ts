// The connection check's report: one result per step, in the order the steps run. The same shape
// is `scanbridge doctor --json`'s last line and what the window's Settings → "Check the connection"
// shows (typed again in preload/contract, parsed on the way).
import type { ProxySource } from '../net/network';

import { CONNECTION_STEPS, type ConnectionProblem, type ConnectionStep } from '../../../preload/contract/vocabulary';

export const CHECK_STEPS = CONNECTION_STEPS;
export type CheckStep = ConnectionStep;

/** Why a step failed: a network failure's kind, or what the service said. */
export type CheckProblem = ConnectionProblem;

export type StepStatus = 'ok' | 'failed' | 'skipped';

type StepBase = {
  status: StepStatus;
  ms: number | null;
  /** When failed: why, the system code or status behind it, and the sentence in English. */
  problem?: CheckProblem;
  code?: string;
  message?: string;
};

export type CheckReport = {
  ok: boolean;
  /** The first step that failed, or null. */
  failed_step: CheckStep | null;
  api_url: string | null;
  checked_at: string;
  dns: StepBase & { host: string | null; addresses: string[] };
  tcp: StepBase & { target: string | null };
  proxy: StepBase & { url: string | null; source: ProxySource | null };
  tls: StepBase & {
    used: boolean;
    issuer: string | null;
    subject: string | null;
    valid_to: string | null;
    protocol: string | null;
    /** Extra CA files trusted besides the built-in roots. */
    extra_ca_files: string[];
  };
  api_key: StepBase & {
    key_kind: 'live' | 'sandbox' | null;
    plan: string | null;
    rate: { limit: number | null; remaining: number | null; reset_at: string | null };
  };
  storage: StepBase & { host: string | null; exam_id: string | null; cleaned_up: boolean };
  upload_speed: StepBase & { bytes: number; bytes_per_second: number | null };
  /** This computer's clock less the service's (ms, from its Date header); null when not read. */
  clock_skew_ms?: number | null;
};
