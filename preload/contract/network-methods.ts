// The connection check (Settings → "Check the connection"; the same report as `scanbridge doctor
// --json`, made by main/core/diagnose/connection-check.ts): one result per step, the first failure named.
import { z } from 'zod';
import { method, noArgs } from './method';
import type { ConnectionProblem, ConnectionStep, NetFailureKind } from './vocabulary';

export type { ConnectionProblem };

/** Where the proxy in use came from: the environment, Settings → Network, or the system's (desktop app). */
export type ProxySource = 'env' | 'settings' | 'system';

/** One step of the check: what every step reports, besides its own fields. */
export type ConnectionStepView = {
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
  /** The first step that failed, or null. */
  failed_step: ConnectionStep | null;
  api_url: string | null;
  checked_at: string;
  dns: ConnectionStepView & { host: string | null; addresses: string[] };
  tcp: ConnectionStepView & { target: string | null };
  proxy: ConnectionStepView & { url: string | null; source: ProxySource | null };
  tls: ConnectionStepView & {
    used: boolean;
    issuer: string | null;
    subject: string | null;
    valid_to: string | null;
    protocol: string | null;
    /** Extra CA files trusted besides the built-in roots. */
    extra_ca_files: string[];
  };
  api_key: ConnectionStepView & {
    key_kind: 'live' | 'sandbox' | null;
    plan: string | null;
    rate: { limit: number | null; remaining: number | null; reset_at: string | null };
  };
  storage: ConnectionStepView & { host: string | null; exam_id: string | null; cleaned_up: boolean };
  upload_speed: ConnectionStepView & { bytes: number; bytes_per_second: number | null };
  /** This computer's clock less the service's (ms, from its Date header); null when not read. */
  clock_skew_ms?: number | null;
};

/**
 * The proxy set in Settings → Network. Its address is in the settings file; its user and password
 * in the keychain. The password never comes back: only whether one is saved.
 */
export type ProxySettingsView = {
  url: string | null;
  user: string | null;
  password_saved: boolean;
  /** The keychain could not be reached: the login is kept for this session only. */
  session_only: boolean;
};

/** A proxy change: `password` left out keeps the saved one; `url` null removes the proxy and its login. */
const proxySave = z
  .object({
    url: z.string().trim().max(2048).nullable(),
    user: z.string().trim().max(256).nullable(),
    password: z.string().max(1024).optional(),
  })
  .strict();

/**
 * The extra certificate authority (CA) file set in Settings → Network: a PEM file (e.g. the root of
 * a firewall that inspects TLS) trusted besides the built-in roots.
 */
export type CaFileView = {
  /** The file's full path; null: none set here. */
  path: string | null;
  /** How many certificates it holds now (0 when none is set or it cannot be used). */
  certificates: number;
  /** Why the saved file cannot be used now (moved, unreadable, no certificate); null when it can. */
  problem: 'unreadable' | 'no_certificate' | null;
  /** SCANBRIDGE_CA_FILE, when set: that file is trusted instead of this one. */
  env_file: string | null;
};

/** A CA file change: its full path, or null to remove it. */
const caFileSave = z.object({ path: z.string().trim().max(4096).nullable() }).strict();

/**
 * Whether the service can be reached, as the agent's last API call found it: `unknown` until a
 * call is made, `reachable` once the service answers (with any status), `unreachable` while its
 * calls get no answer (`problem`: what the network module understood, or `timeout`).
 */
export type ServiceReachView = {
  state: 'unknown' | 'reachable' | 'unreachable';
  /** When the current state began (ISO), null while unknown. */
  since: string | null;
  /** The service's host (and port). */
  host: string | null;
  problem: NetFailureKind | 'timeout' | 'no_answer' | null;
};

export const networkMethods = {
  /** Whether the service can be reached (also pushed as `service:reach` when it changes). */
  'service:reach': method<ServiceReachView>()(noArgs),
  /** Runs the connection check now (it takes a few seconds: a test exam is made and deleted). */
  'network:check': method<ConnectionCheckView>()(noArgs),
  'network:proxy': method<ProxySettingsView>()(noArgs),
  'network:proxy-save': method<ProxySettingsView>()(proxySave),
  'network:ca-file': method<CaFileView>()(noArgs),
  /** Saves the CA file (refused with `ca_file_unreadable` or `ca_file_no_certificate`), then rebuilds the network. */
  'network:ca-file-save': method<CaFileView>()(caFileSave),
} as const;
