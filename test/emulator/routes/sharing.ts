import { z } from 'zod';
import type { App, ApiCtx, RawCtx } from '../core/app';
import { badRequest, conflict, sendHtml } from '../core/http';
import { randomToken } from '../core/ids';
import type { Exam } from '../core/state';
import { email, objectBody, parseWith } from '../core/validate';
import { iframeSnippet, messagePage, pinFormPage, publicExamPage, viewerPage } from '../exams/pages';
import { uniquePin } from '../exams/pin';
import { getExam, viewerUrl } from '../exams/view';

const recipients = (max: number) => z.union([email, z.array(email).max(max, `at most ${max} addresses`)]);
const shareSchema = z.strictObject({
  to: recipients(10),
  cc: recipients(10).nullable().optional(),
  message: z.string().max(2000, 'at most 2000 characters').nullable().optional(),
  locale: z.enum(['es', 'en', 'pt']).nullable().optional(),
});
const embedSchema = z.strictObject({
  title: z.string().max(200, 'at most 200 characters').nullable().optional(),
  show_year: z.boolean().optional(),
  show_study_type: z.boolean().optional(),
});

const list = (v: string | string[] | null | undefined): string[] => (v == null ? [] : Array.isArray(v) ? v : [v]);

const TEXT = {
  es: {
    subject: 'Examen compartido',
    link: 'Ver el examen en línea',
    attached: 'Las imágenes van adjuntas a este correo.',
  },
  en: { subject: 'Shared exam', link: 'View the exam online', attached: 'The images are attached to this e-mail.' },
  pt: {
    subject: 'Exame compartilhado',
    link: 'Ver o exame online',
    attached: 'As imagens estão anexadas a este e-mail.',
  },
};

const ATTACHMENT_TYPES: Record<string, string> = {
  dcm: 'application/dicom',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
};

function attachmentType(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (ext && ATTACHMENT_TYPES[ext]) ?? (ext ? 'application/octet-stream' : 'application/dicom');
}

function share(app: App, { auth, params, body }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  const input = parseWith(shareSchema, objectBody(body));
  const to = list(input.to);
  const cc = list(input.cc);
  if (to.length === 0)
    throw badRequest('to needs at least one address', [{ field: 'to', message: 'at least 1 address' }]);
  if (exam.status !== 'ready') throw conflict('Only a ready exam can be shared');
  if (auth.sandbox) return { body: { sent: false, reason: 'test_mode_no_send', to, cc } };

  const t = TEXT[input.locale ?? 'es'];
  const radiograph = exam.exam_type === 'radiografia';
  const lines = [`${auth.account.clinic_name}: ${exam.name}`];
  if (input.message) lines.push('', input.message);
  lines.push('', radiograph ? t.attached : `${t.link}: ${viewerUrl(app, exam)}`);
  const mail = app.events.mail({
    account_id: auth.account.id,
    kind: 'exam_share',
    to,
    cc,
    subject: `${t.subject}: ${exam.name}`,
    body: lines.join('\n'),
    attachments: radiograph
      ? exam.files.map((f) => ({
          filename: f.name.split('/').pop() ?? f.name,
          size: f.size,
          content_type: attachmentType(f.name),
        }))
      : [],
    exam_id: exam.id,
  });
  exam.counters.shares += 1;
  app.events.emit(auth.account.id, 'exam.shared', { exam_id: exam.id, to, cc, email_id: mail.id }, false);
  app.events.notify(
    auth.account.id,
    {
      type: 'exam_shared',
      title: 'Exam shared',
      body: `The exam "${exam.name}" was e-mailed to ${to.length + cc.length} recipient(s).`,
      exam_id: exam.id,
    },
    false,
  );
  return { body: { sent: true, email_id: mail.id, to, cc } };
}

function publicUrl(app: App, slug: string): string {
  return `${app.origin()}/p/${encodeURIComponent(slug)}`;
}

function rotatePin(app: App, { auth, params, body }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  parseWith(z.strictObject({}), objectBody(body));
  exam.public_page_pin = uniquePin(app, exam.account_id);
  exam.pin_rotated_at = app.clock.nowIso();
  exam.updated_at = exam.pin_rotated_at;
  app.events.activity(exam.account_id, 'exam.access_pin_rotated', 'exam', exam.id, { exam_id: exam.id }, exam.sandbox);
  return { body: { pin: exam.public_page_pin, rotated_at: exam.pin_rotated_at } };
}

function embedUrl(app: App, token: string): string {
  return `${app.origin()}/embed/${token}`;
}

function embedTitle(exam: Exam): string {
  return exam.embed.title ?? exam.name;
}

function enableEmbed(app: App, { auth, params, body }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  const input = parseWith(embedSchema, objectBody(body));
  const embed = exam.embed;
  const wasEnabled = embed.enabled && embed.token !== null;
  if (!embed.token) embed.token = randomToken(18);
  embed.enabled = true;
  if (!wasEnabled) embed.enabled_at = app.clock.nowIso();
  if (input.title !== undefined) embed.title = input.title;
  if (input.show_year !== undefined) embed.show_year = input.show_year;
  if (input.show_study_type !== undefined) embed.show_study_type = input.show_study_type;
  exam.updated_at = app.clock.nowIso();
  app.events.activity(
    exam.account_id,
    'exam.embed_enabled',
    'exam',
    exam.id,
    { exam_id: exam.id, newly_enabled: !wasEnabled },
    exam.sandbox,
  );
  const url = embedUrl(app, embed.token);
  return {
    body: { enabled: true, token: embed.token, embed_url: url, iframe_snippet: iframeSnippet(url, embedTitle(exam)) },
  };
}

function revokeEmbed(app: App, { auth, params }: ApiCtx) {
  const exam = getExam(app, auth, params['id'] ?? '');
  if (exam.embed.token !== null || exam.embed.enabled) {
    exam.embed.enabled = false;
    exam.embed.token = null;
    exam.updated_at = app.clock.nowIso();
    app.events.activity(exam.account_id, 'exam.embed_revoked', 'exam', exam.id, { exam_id: exam.id }, exam.sandbox);
  }
  return { body: { enabled: false, revoked: true } };
}

function html(ctx: RawCtx, status: number, body: string): null {
  sendHtml(ctx.res, status, body);
  return null;
}

/** A page view of an exam through one of its public links: counted and saved. */
function countView(app: App, exam: Exam): void {
  exam.counters.views += 1;
  app.store.save();
}

function viewerRoute(app: App, ctx: RawCtx): null {
  const exam = app.store.state.exams.find((e) => e.share_token === ctx.params['token']);
  if (!exam)
    return html(ctx, 404, messagePage('Examen no encontrado', 'El enlace no existe o el examen fue eliminado.'));
  countView(app, exam);
  return html(ctx, 200, viewerPage(exam));
}

function embedRoute(app: App, ctx: RawCtx): null {
  const token = ctx.params['token'];
  const exam = app.store.state.exams.find((e) => e.embed.enabled && e.embed.token !== null && e.embed.token === token);
  if (!exam) return html(ctx, 404, messagePage('Visor no disponible', 'Este visor fue desactivado o no existe.'));
  exam.embed.view_count += 1;
  countView(app, exam);
  return html(
    ctx,
    200,
    viewerPage(exam, { title: embedTitle(exam), showYear: exam.embed.show_year, showType: exam.embed.show_study_type }),
  );
}

function publicPageRoute(app: App, ctx: RawCtx): null {
  const account = app.store.state.accounts.find((a) => a.clinic_slug === ctx.params['slug']);
  if (!account)
    return html(ctx, 404, messagePage('Clínica no encontrada', 'La dirección no corresponde a ninguna clínica.'));
  const pin = ctx.query.get('pin');
  if (pin === null || pin === '') return html(ctx, 200, pinFormPage(account));
  const exam = /^\d{6}$/.test(pin)
    ? app.store.state.exams.find((e) => e.account_id === account.id && e.public_page_pin === pin)
    : undefined;
  if (!exam)
    return html(ctx, 403, messagePage('PIN incorrecto', 'El PIN no corresponde a ningún examen de esta clínica.'));
  return html(ctx, 200, publicExamPage(account, exam, viewerUrl(app, exam)));
}

/** Share by e-mail, access PIN and public page, embed, viewer pages (API-v1.md §2.4, §2.5, §3.3, §3.4, §4.2). */
export function register(app: App): void {
  app.api.add('POST', '/exams/:id/share', { scope: 'exams:write' }, (ctx) => share(app, ctx));
  app.api.add('GET', '/exams/:id/access-pin', { scope: 'exams:read' }, ({ auth, params }) => {
    const exam = getExam(app, auth, params['id'] ?? '');
    return {
      body: {
        pin: exam.public_page_pin,
        clinic_slug: auth.account.clinic_slug,
        public_url: publicUrl(app, auth.account.clinic_slug),
      },
    };
  });
  app.api.add('POST', '/exams/:id/access-pin', { scope: 'exams:write' }, (ctx) => rotatePin(app, ctx));
  app.api.add('GET', '/exams/:id/embed', { scope: 'exams:read' }, ({ auth, params }) => {
    const { embed, ...exam } = getExam(app, auth, params['id'] ?? '');
    const token = embed.enabled ? embed.token : null;
    return {
      body: {
        enabled: embed.enabled && token !== null,
        token,
        snippet: token ? iframeSnippet(embedUrl(app, token), embed.title ?? exam.name) : null,
        view_count: embed.view_count,
      },
    };
  });
  app.api.add('POST', '/exams/:id/embed', { scope: 'exams:write' }, (ctx) => enableEmbed(app, ctx));
  app.api.add('DELETE', '/exams/:id/embed', { scope: 'exams:write' }, (ctx) => revokeEmbed(app, ctx));

  app.public.add('GET', '/viewer/:token', { scope: null }, (ctx) => viewerRoute(app, ctx));
  app.public.add('GET', '/s/:token', { scope: null }, (ctx) => viewerRoute(app, ctx));
  app.public.add('GET', '/embed/:token', { scope: null }, (ctx) => embedRoute(app, ctx));
  app.public.add('GET', '/p/:slug', { scope: null }, (ctx) => publicPageRoute(app, ctx));
}
