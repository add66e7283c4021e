// Support tickets (API-v1.md §4.9): the account's tickets, one with its admin replies, a new one,
// and the diagnostics summary the user reviews before it is attached.
import { arch, release } from 'node:os';
import type { Diagnostics, TicketView } from '../../../../preload/contract';
import type { Ticket } from '../../api/endpoints';
import { APP_VERSION } from '../../api/http';
import type { Handlers } from '../host/contract-host';
import { bundleContent, bundleZip, supportBundleText } from '../../diagnose/support-bundle';
import { localDay } from '../../log';
import { ensurePrivateDir } from '../../private-fs';
import { buildDiagnostics } from './diagnostics';
import type { HandlerContext } from './handler-context';
import { checkConnection } from './handlers-network';

const ticketView = (t: Ticket): TicketView => ({
  id: t.id,
  subject: t.subject ?? '',
  message: t.message ?? '',
  category: t.category ?? 'general',
  exam_id: t.exam_id ?? null,
  status: t.status ?? null,
  created_at: t.created_at ?? null,
  replies_count: t.replies_count ?? null,
  test_mode: t.test_mode === true,
});

export function createSupportHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  | 'support:list'
  | 'support:get'
  | 'support:create'
  | 'support:diagnostics'
  | 'support:bundle'
  | 'support:open-log-folder'
> {
  const diagnostics = (): Diagnostics =>
    buildDiagnostics({
      appVersion: APP_VERSION,
      os: { platform: process.platform, release: release(), arch: arch() },
      nodeVersion: process.versions.node,
      transport: ctx.transport,
      // The address in use (SCANBRIDGE_API_URL may override the saved one).
      settings: { ...ctx.settingsStore.get(), api_base_url: ctx.settingsView().api_base_url || null },
      activeKey: ctx.keysStatus().active,
      jobs: ctx.queue.list(),
    });
  const known = (): string[] => {
    const jobs = ctx.queue.list();
    return [
      ...jobs.map((j) => j.patient_name),
      ...ctx.inbox.list().flatMap((i) => [i.fields.patient_name, i.fields.patient_id]),
    ];
  };
  const input = async () => ({
    diagnostics: diagnostics(),
    check: await checkConnection(ctx),
    jobs: ctx.queue.list(),
    logDir: ctx.logDir,
    known: known(),
  });
  // The bundle the window showed is the one sent (the connection check runs when it is prepared).
  let shown: Diagnostics | null = null;
  const bundle = async (): Promise<Diagnostics> => {
    const i = await input();
    shown = { ...i.diagnostics, text: `${i.diagnostics.text}\n${supportBundleText(i)}` };
    return shown;
  };
  return {
    'support:list': async () => {
      const client = ctx.service.require();
      const { tickets } = await client.support.list({ limit: 50 });
      return { tickets: tickets.map(ticketView), sandbox: client.sandbox };
    },
    'support:get': async (args) => {
      const client = ctx.service.require();
      const detail = await client.support.get(args.id);
      return {
        ticket: ticketView(detail.ticket),
        replies: detail.replies.map((r) => ({ body: r.body, created_at: r.created_at ?? null })),
      };
    },
    'support:create': async (args) => {
      const client = ctx.service.require();
      const message = args.include_diagnostics
        ? `${args.message}\n\n${(shown ?? (await bundle())).text}`
        : args.message;
      const ticket = await client.support.create({
        subject: args.subject,
        message,
        ...(args.category ? { category: args.category } : {}),
        ...(args.exam_id ? { exam_id: args.exam_id } : {}),
      });
      return ticketView(ticket);
    },
    'support:diagnostics': async () => bundle(),
    'support:bundle': async (args) => {
      const now = new Date();
      const content = bundleContent({ ...(await input()), days: args.days ?? 7, now });
      const zip = await bundleZip(content, now);
      return {
        file_name: `scanbridge-support-${localDay(now)}.zip`,
        zip_base64: zip.toString('base64'),
        bytes: zip.length,
        entries: content.entries.length,
      };
    },
    'support:open-log-folder': async () => {
      ensurePrivateDir(ctx.logDir);
      return { opened: await ctx.folderOpener(ctx.logDir), path: ctx.logDir };
    },
  };
}
