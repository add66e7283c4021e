// Sharing an exam (§4.2, §2.4, §2.5): e-mail, the public page PIN, the embeddable viewer.
import type { Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

export function createShareHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  'share:email' | 'share:public-page' | 'share:rotate-pin' | 'share:embed' | 'share:embed-enable' | 'share:embed-revoke'
> {
  return {
    'share:email': async (args) => {
      const r = await ctx.service.require().exams.share(args.exam_id, {
        to: args.to,
        ...(args.cc.length > 0 ? { cc: args.cc } : {}),
        ...(args.message?.trim() ? { message: args.message.trim() } : {}),
        locale: args.locale,
      });
      // Only an explicit `sent: true` (or an e-mail id) is a sent e-mail; a sandbox answer is not.
      const sent = r.sent === true || (r.sent == null && typeof r.email_id === 'string' && r.reason == null);
      return { sent, reason: r.reason ?? null, email_id: r.email_id ?? null };
    },
    'share:public-page': async (args) => {
      const p = await ctx.service.require().exams.getAccessPin(args.exam_id);
      return { pin: p.pin, clinic_slug: p.clinic_slug ?? null, public_url: p.public_url ?? null };
    },
    'share:rotate-pin': async (args) => {
      const p = await ctx.service.require().exams.rotateAccessPin(args.exam_id);
      return { pin: p.pin, rotated_at: p.rotated_at ?? null };
    },
    'share:embed': async (args) => {
      const e = await ctx.service.require().exams.getEmbed(args.exam_id);
      return { enabled: e.enabled, token: e.token ?? null, snippet: e.snippet ?? null, view_count: e.view_count ?? 0 };
    },
    'share:embed-enable': async (args) => {
      const e = await ctx.service.require().exams.enableEmbed(args.exam_id, {
        ...(args.title ? { title: args.title } : {}),
        show_year: args.show_year,
        show_study_type: args.show_study_type,
      });
      return { embed_url: e.embed_url, iframe_snippet: e.iframe_snippet, token: e.token ?? null };
    },
    'share:embed-revoke': async (args) => {
      await ctx.service.require().exams.revokeEmbed(args.exam_id);
      return { revoked: true as const };
    },
  };
}
