// Sharing an exam (API v1 §4.2, §2.4, §2.5): by e-mail, the clinic public page PIN, the embed.
import { z } from 'zod';
import { id, method } from './method';
import { SHARE_LOCALES } from './vocabulary';

const email = z.email().max(320);

/** What the service answered to a share: sandbox keys send nothing (`sent: false, reason: test_mode_no_send`). */
export type ShareSent = { sent: boolean; reason: string | null; email_id: string | null };
export type PublicPage = { pin: string; clinic_slug: string | null; public_url: string | null };
export type RotatedPin = { pin: string; rotated_at: string | null };
export type EmbedView = { enabled: boolean; token: string | null; snippet: string | null; view_count: number };
/** The patient's printed sheet (PDF); `opened`: the desktop showed the system's print dialog for it. */
export type HandoutPdf = { pdf_base64: string; file_name: string; opened: boolean };
/** The e-mail an upload asked for once its exam is ready (share-on-ready), and what became of it. */
export type ShareOnReadyView = {
  state: 'sending' | 'sent' | 'not_sent' | 'failed';
  to: string[];
  at: string;
  reason: string | null;
};
export type EmbedEnabledView = { embed_url: string; iframe_snippet: string; token: string | null };

const byExam = z.object({ exam_id: id }).strict();

export const shareMethods = {
  'share:email': method<ShareSent>()(
    z
      .object({
        exam_id: id,
        to: z.array(email).min(1).max(10),
        cc: z.array(email).max(10).default([]),
        message: z.string().max(2000).optional(),
        locale: z.enum(SHARE_LOCALES),
      })
      .strict(),
  ),
  'share:public-page': method<PublicPage>()(byExam),
  'share:rotate-pin': method<RotatedPin>()(byExam),
  'share:embed': method<EmbedView>()(byExam),
  'share:embed-enable': method<EmbedEnabledView>()(
    z
      .object({
        exam_id: id,
        title: z.string().trim().max(200).optional(),
        show_year: z.boolean(),
        show_study_type: z.boolean(),
      })
      .strict(),
  ),
  'share:embed-revoke': method<{ revoked: true }>()(byExam),
  'share:on-ready': method<ShareOnReadyView | null>()(byExam),
  'share:handout': method<HandoutPdf>()(
    z.object({ exam_id: id, language: z.enum(['es', 'en']), open: z.boolean() }).strict(),
  ),
} as const;
