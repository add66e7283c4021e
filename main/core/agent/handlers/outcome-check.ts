// One look at the service after a lost answer (`maybe_done`): what it holds now for the call that
// lost its answer, so that the receptionist knows whether it was done before trying again. Exactly
// one read per look (the window asks once, when it shows the message), never a loop.
import type { OutcomeCheck, OutcomeFinding } from '../../../../preload/contract/outcome-methods';
import type { ApiClient } from '../../api';
import { isApiError } from '../../api/http';

/** The parts of the API client a look needs. */
export type OutcomeReader = Pick<ApiClient, 'exams' | 'reports' | 'consent' | 'webhooks' | 'support'>;

/** Same address for the service and for us: compared after URL normalisation (case of the host, default port…). */
function sameUrl(a: string, b: string): boolean {
  const norm = (u: string): string => {
    try {
      return new URL(u.trim()).href;
    } catch {
      return u.trim();
    }
  };
  return norm(a) === norm(b);
}

function newest(dates: (string | null | undefined)[]): string | null {
  let best: string | null = null;
  for (const d of dates) if (d && (best === null || Date.parse(d) > Date.parse(best))) best = d;
  return best;
}

/** Reads what the service holds for `check` (one API call). */
export async function checkOutcome(client: OutcomeReader, check: OutcomeCheck): Promise<OutcomeFinding> {
  switch (check.action) {
    case 'share': {
      const exam = await client.exams.get(check.exam_id);
      return { action: 'share', shares: exam.counters?.shares ?? 0 };
    }
    case 'rotate_pin': {
      const page = await client.exams.getAccessPin(check.exam_id);
      return { action: 'rotate_pin', pin: page.pin };
    }
    case 'embed_enable': {
      const embed = await client.exams.getEmbed(check.exam_id);
      return { action: 'embed_enable', enabled: embed.enabled };
    }
    case 'report_upload':
    case 'report_sign': {
      let report;
      try {
        report = await client.reports.get(check.exam_id);
      } catch (e) {
        if (!isApiError(e, 'not_found')) throw e;
        report = null;
      }
      if (check.action === 'report_upload') {
        return {
          action: 'report_upload',
          present: report !== null,
          filename: report?.filename ?? null,
          uploaded_at: report?.uploaded_at ?? null,
        };
      }
      const signed = report !== null && (report.signed === true || !!report.signature);
      return { action: 'report_sign', signed, signed_at: report?.signature?.signed_at ?? null };
    }
    case 'consent': {
      const consent = await client.consent.get(check.exam_id);
      if (!consent) return { action: 'consent', status: 'none', signing_method: null, signed_at: null };
      return {
        action: 'consent',
        status: consent.status === 'signed' ? 'signed' : 'pending',
        signing_method: consent.signing_method ?? null,
        signed_at: consent.signed_at ?? null,
      };
    }
    case 'webhook_create': {
      const { webhooks } = await client.webhooks.list();
      return { action: 'webhook_create', matches: webhooks.filter((w) => sameUrl(w.url, check.url)).length };
    }
    case 'webhook_test': {
      const { deliveries } = await client.webhooks.deliveries(check.id);
      const pings = deliveries.filter((d) => d.event_type === 'test.ping');
      return { action: 'webhook_test', pings: pings.length, last_at: newest(pings.map((d) => d.created_at)) };
    }
    case 'ticket_create': {
      const { tickets } = await client.support.list();
      const subject = check.subject.trim();
      const same = tickets.filter((t) => (t.subject ?? '').trim() === subject);
      return { action: 'ticket_create', matches: same.length, last_at: newest(same.map((t) => t.created_at)) };
    }
  }
}
