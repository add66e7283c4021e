// Support tickets (API-v1.md §4.9) and the diagnostics summary a ticket may carry.
import { z } from 'zod';
import { id, method, noArgs } from './method';

export const ticketCategories = ['general', 'bug', 'billing', 'feature_request', 'account', 'viewer'] as const;
export type TicketCategory = (typeof ticketCategories)[number];

export type TicketView = {
  id: string;
  subject: string;
  message: string;
  category: string;
  exam_id: string | null;
  /** open, answered or closed (the service may add others). */
  status: string | null;
  created_at: string | null;
  replies_count: number | null;
  /** A sandbox key's ticket: nothing was stored or sent. */
  test_mode: boolean;
};

export type TicketReply = { body: string; created_at: string | null };

/**
 * What ScanBridge can attach to a ticket so support can help: never a key, a patient's data or a
 * folder path (folder paths often name patients). `text` is exactly what is appended to the message.
 */
export type Diagnostics = {
  app_version: string;
  os: string;
  transport: 'ipc' | 'http' | 'cli';
  settings: Record<string, string | number | boolean | null>;
  /** Failed uploads still listed, counted by error code. */
  upload_errors: { code: string; count: number }[];
  text: string;
};

/** The support bundle (CONTRACTS.md §3) as the window saves it: a ZIP's bytes and a file name. */
export type SupportBundle = { file_name: string; zip_base64: string; bytes: number; entries: number };

/** The log folder: opened in the system's file manager (desktop), or only named (browser mode). */
export type LogFolder = { opened: boolean; path: string };

export const supportMethods = {
  'support:list': method<{ tickets: TicketView[]; sandbox: boolean }>()(noArgs),
  'support:get': method<{ ticket: TicketView; replies: TicketReply[] }>()(z.object({ id }).strict()),
  'support:create': method<TicketView>()(
    z
      .object({
        subject: z.string().trim().min(1).max(200),
        message: z.string().trim().min(1).max(8000),
        category: z.enum(ticketCategories).optional(),
        exam_id: z.string().trim().max(100).optional(),
        /** Appends the diagnostics summary (the one `support:diagnostics` showed). */
        include_diagnostics: z.boolean().optional(),
      })
      .strict(),
  ),
  'support:diagnostics': method<Diagnostics>()(noArgs),
  /** The support bundle of the last `days` days of logs (7 when not given). */
  'support:bundle': method<SupportBundle>()(z.object({ days: z.number().int().min(1).max(14).optional() }).strict()),
  'support:open-log-folder': method<LogFolder>()(noArgs),
} as const;
