import { z } from 'zod';
import type { App, AuthInfo } from '../core/app';
import { badRequest, notFound } from '../core/http';
import { newId } from '../core/ids';
import type { Template } from '../core/state';
import { objectBody, parseWith } from '../core/validate';
import { SYSTEM_TEMPLATES } from '../data/system-templates';

/** System defaults carry a fixed creation date: they ship with the service, not with the account. */
const SYSTEM_CREATED_AT = '2024-01-01T00:00:00.000Z';
/** Rounding slack so that 0.3 + 0.7 still counts as lying within the page. */
const EPSILON = 1e-9;

const unit = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

const slotSchema = z
  .strictObject({
    x: unit,
    y: unit,
    w: unit.refine((n) => n > 0, 'must be greater than 0'),
    h: unit.refine((n) => n > 0, 'must be greater than 0'),
    label: z.string().trim().max(100).optional(),
  })
  .superRefine((s, ctx) => {
    if (s.x + s.w > 1 + EPSILON)
      ctx.addIssue({
        code: 'custom',
        path: ['w'],
        message: 'x + w must not exceed 1 (the slot must lie within the page)',
      });
    if (s.y + s.h > 1 + EPSILON)
      ctx.addIssue({
        code: 'custom',
        path: ['h'],
        message: 'y + h must not exceed 1 (the slot must lie within the page)',
      });
  });

const pageSchema = z.strictObject({
  name: z.string().trim().max(100).optional(),
  slots: z.array(slotSchema).min(1, 'a page needs at least one slot').max(48),
});

const fields = {
  name: z.string().trim().min(1, 'required').max(200),
  description: z.union([z.string().trim().max(2000), z.null()]).transform((s) => (s === '' ? null : s)),
  pages: z.array(pageSchema).min(1, 'a template needs at least one page').max(20),
};

const createSchema = z.strictObject({
  name: fields.name,
  description: fields.description.optional(),
  pages: fields.pages,
});
const patchSchema = z.strictObject({
  name: fields.name.optional(),
  description: fields.description.optional(),
  pages: fields.pages.optional(),
});

function view(t: Template): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    is_default: t.is_default,
    pages: t.pages,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

const readOnly = (): Error =>
  badRequest('System default templates are read-only', [
    { field: 'id', message: 'system default template (is_default=true) cannot be changed or deleted' },
  ]);

/** Puts the shipped system defaults into the state (and refreshes them if the data changed). */
function seedSystemTemplates(app: App): void {
  const templates = app.store.state.templates;
  for (const sys of SYSTEM_TEMPLATES) {
    const rec: Template = {
      ...structuredClone(sys),
      account_id: null,
      is_default: true,
      created_at: SYSTEM_CREATED_AT,
      updated_at: SYSTEM_CREATED_AT,
    };
    const i = templates.findIndex((t) => t.id === sys.id);
    if (i < 0) templates.push(rec);
    else templates[i] = rec;
  }
}

/** Report plate templates (API-v1.md §2.10, §4.7, sandbox rules §5.5, the §7 system-default 400). */
export function register(app: App): void {
  seedSystemTemplates(app);
  const state = () => app.store.state;
  const systemDefaults = (): Template[] => {
    const order = new Map(SYSTEM_TEMPLATES.map((t, i) => [t.id, i]));
    return state()
      .templates.filter((t) => t.is_default)
      .sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
  };
  const find = (auth: AuthInfo, id: string): Template | undefined =>
    state().templates.find((t) => t.id === id && (t.is_default || (!auth.sandbox && t.account_id === auth.account.id)));

  app.api.add('GET', '/templates', { scope: 'templates:read' }, ({ auth }) => {
    const own = auth.sandbox
      ? []
      : state()
          .templates.filter((t) => !t.is_default && t.account_id === auth.account.id)
          .sort((a, b) => a.created_at.localeCompare(b.created_at));
    return { body: { templates: [...systemDefaults(), ...own].map(view) } };
  });

  app.api.add('GET', '/templates/:id', { scope: 'templates:read' }, ({ auth, params }) => {
    const t = find(auth, params['id'] ?? '');
    if (!t) throw notFound('Template');
    return { body: view(t) };
  });

  app.api.add('POST', '/templates', { scope: 'templates:write' }, ({ auth, body }) => {
    const input = parseWith(createSchema, objectBody(body));
    const now = app.clock.nowIso();
    const rec: Template = {
      id: newId(auth.sandbox ? 'tpl_test_' : 'tpl_'),
      account_id: auth.account.id,
      name: input.name,
      description: input.description ?? null,
      is_default: false,
      pages: input.pages,
      created_at: now,
      updated_at: now,
    };
    if (auth.sandbox) return { status: 201, body: { ...view(rec), test_mode: true } };
    state().templates.push(rec);
    app.events.activity(
      auth.account.id,
      'template.created',
      'template',
      rec.id,
      { template_id: rec.id, name: rec.name, pages: rec.pages.length },
      false,
    );
    return { status: 201, body: view(rec) };
  });

  app.api.add('PATCH', '/templates/:id', { scope: 'templates:write' }, ({ auth, params, body }) => {
    const id = params['id'] ?? '';
    const existing = find(auth, id);
    if (existing?.is_default) throw readOnly();
    const input = parseWith(patchSchema, objectBody(body));
    const keys = Object.keys(input) as ('name' | 'description' | 'pages')[];
    if (keys.length === 0)
      throw badRequest('Nothing to update', [
        { field: 'body', message: 'give at least one of name, description, pages' },
      ]);
    if (auth.sandbox) {
      const now = app.clock.nowIso();
      const mock: Template = {
        id: id.startsWith('tpl_test_') ? id : newId('tpl_test_'),
        account_id: auth.account.id,
        name: input.name ?? '',
        description: input.description ?? null,
        is_default: false,
        pages: input.pages ?? [],
        created_at: now,
        updated_at: now,
      };
      return { body: { ...view(mock), test_mode: true } };
    }
    if (!existing) throw notFound('Template');
    const changed: string[] = [];
    if (input.name !== undefined && input.name !== existing.name) {
      existing.name = input.name;
      changed.push('name');
    }
    if (input.description !== undefined && input.description !== existing.description) {
      existing.description = input.description;
      changed.push('description');
    }
    if (input.pages !== undefined && JSON.stringify(input.pages) !== JSON.stringify(existing.pages)) {
      existing.pages = input.pages;
      changed.push('pages');
    }
    if (changed.length > 0) {
      existing.updated_at = app.clock.nowIso();
      app.events.activity(
        auth.account.id,
        'template.updated',
        'template',
        existing.id,
        { template_id: existing.id, fields: changed },
        false,
      );
    }
    return { body: view(existing) };
  });

  app.api.add('DELETE', '/templates/:id', { scope: 'templates:write' }, ({ auth, params }) => {
    const id = params['id'] ?? '';
    const existing = find(auth, id);
    if (existing?.is_default) throw readOnly();
    if (auth.sandbox) return { body: { deleted: true, id, test_mode: true } };
    if (!existing) return { body: { deleted: true, id, already_deleted: true } };
    state().templates = state().templates.filter((t) => t !== existing);
    app.events.activity(
      auth.account.id,
      'template.deleted',
      'template',
      existing.id,
      { template_id: existing.id, name: existing.name },
      false,
    );
    return { body: { deleted: true, id } };
  });
}
