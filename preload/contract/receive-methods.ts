// The DICOM listener (scanners send studies to ScanBridge over the network): its settings and its
// state, for the Settings section "Receive from scanners (DICOM)".
import { z } from 'zod';
import { method, noArgs } from './method';
import { shareRuleArgs } from './share-rule';
import type { ShareRuleView } from './share-rule';
import { FOLDER_EXAM_TYPES } from './vocabulary';
import type { FolderExamType } from './vocabulary';

export type ReceiveSettings = {
  enabled: boolean;
  ae_title: string;
  port: number;
  quiet_seconds: number;
  stopped_after_minutes: number;
  /** Calling AE titles or IP addresses allowed to send; empty: anyone calling our AE title. */
  allowed_senders: string[];
  exam_type: FolderExamType;
  mode: 'auto' | 'review';
  /** Every received study's exam is e-mailed to these addresses once ready; null: to no one. */
  share_rule: ShareRuleView | null;
};

export type ReceiveStateName = 'listening' | 'port_in_use' | 'failed' | 'stopped';

/**
 * A problem of the listener as a code and its facts (ports, AE titles, addresses, error codes; no
 * paths, no patient data). Each front end words it in its user's language from the catalogue, key
 * `core.receive.problem.<code>` with the facts as its values.
 */
export type ReceiveProblem =
  /** The port could not be opened: in use (EADDRINUSE), forbidden (EACCES), an address not ours (EADDRNOTAVAIL), or another system error. */
  | { code: 'port_in_use' | 'port_forbidden' | 'address_unavailable'; port: number }
  | { code: 'listen_failed'; port: number; errno: string }
  /** An association refused: it called another AE title, or its sender is not on the allow-list. */
  | { code: 'called_other_aet'; calling_aet: string; address: string; called: string; ours: string }
  | { code: 'not_allowed'; calling_aet: string; address: string }
  /** A received object was not DICOM (the sender was answered with a failure status). */
  | { code: 'not_dicom'; calling_aet: string; address: string }
  /** The peer broke the protocol; `detail` is the technical reason (in English, as the DICOM standard names it). */
  | { code: 'association_aborted'; calling_aet: string; address: string; detail: string }
  | { code: 'connection_closed'; address: string; detail: string }
  /** The data folder's disk is full: objects are refused until there is room. */
  | { code: 'disk_full'; needed_mb: number };

export type ReceiveProblemCode = ReceiveProblem['code'];

export type ReceiveStatus = {
  state: ReceiveStateName;
  port: number | null;
  ae_title: string;
  /** Why it is not listening, or why it refuses objects now (a full disk); null when all is well. */
  problem: ReceiveProblem | null;
  /** The same in English words, for the log and the support bundle. */
  message: string | null;
  last_association: {
    calling_aet: string;
    address: string;
    at: string;
    outcome: 'released' | 'aborted';
    objects: number;
  } | null;
  /** The latest problems (refused associations, failed objects), newest last; `message` in English words. */
  errors: { at: string; problem: ReceiveProblem; message: string }[];
};

export type ReceiveView = {
  settings: ReceiveSettings;
  status: ReceiveStatus;
  /** This computer's network addresses (IPv4, not loopback): what the scanner's operator types as the host. */
  addresses: string[];
};

/** Where a received study came from (shown on its Inbox item). */
export type ReceivedFromView = {
  calling_aet: string;
  address: string;
  /** The sender's association was cut off and it did not send the study again: staff decide. */
  sender_stopped: boolean;
};

const aeTitle = z
  .string()
  .trim()
  .regex(/^[\x20-\x5b\x5d-\x7e]{1,16}$/, 'an AE title is 1 to 16 plain characters without a backslash');

export const receiveMethods = {
  'receive:get': method<ReceiveView>()(noArgs),
  'receive:update': method<ReceiveView>()(
    z
      .object({
        enabled: z.boolean().optional(),
        ae_title: aeTitle.optional(),
        port: z.number().int().min(1).max(65535).optional(),
        quiet_seconds: z.number().int().min(1).max(3600).optional(),
        stopped_after_minutes: z.number().int().min(1).max(10080).optional(),
        allowed_senders: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
        exam_type: z.enum(FOLDER_EXAM_TYPES).optional(),
        mode: z.enum(['auto', 'review']).optional(),
        share_rule: shareRuleArgs.nullable().optional(),
      })
      .strict(),
  ),
} as const;
