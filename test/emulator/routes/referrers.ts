import { z } from 'zod';
import type { App, AuthInfo } from '../core/app';
import { badRequest, notFound } from '../core/http';
import { newId } from '../core/ids';
import type { Referrer } from '../core/state';
import { email, objectBody, parseWith } from '../core/validate';

/** Optional text: an empty or blank string clears the field, like null does. */
const optionalText = (max: number) =>
  z.union([z.string().trim().max(max), z.null()]).transform((s) => (s === null || s === '' ? null : s));

const optionalEmail = z
  .union([z.literal(''), z.null(), email])
  .transform((s) => (s === null || s.trim() === '' ? null : s.trim()));

const fields = {
  name: z.string().trim().min(1, 'required').max(200),
  email: optionalEmail,
  phone: optionalText(50),
  specialty: optionalText(200),
  notes: optionalText(5000),
};

const createSchema = z.strictObject({
  name: fields.name,
  email: fields.email.optional(),
  phone: fields.phone.optional(),
  specialty: fields.specialty.optional(),
  notes: fields.notes.optional(),
});

const patchSchema = z.strictObject({
  name: fields.name.optional(),
  email: fields.email.optional(),
  phone: fields.phone.optional(),
  specialty: fields.specialty.optional(),
  notes: fields.notes.optional(),
});

type Editable = 'name' | 'email' | 'phone' | 'specialty' | 'notes';

/** Spanish collation without accent sensitivity: "Álvarez" sorts with "Alvarez", "ñ" after "n". */
const collator = new Intl.Collator('es', { sensitivity: 'base' });

function view(r: Referrer): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    specialty: r.specialty,
    notes: r.notes,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The referrer directory (API-v1.md §2.9, §4.6, sandbox rules §5.5). */
export function register(app: App): void {
  const state = () => app.store.state;
  const own = (auth: AuthInfo, id: string): Referrer | undefined =>
    state().referrers.find((r) => r.id === id && r.account_id === auth.account.id);

  app.api.add('GET', '/referrers', { scope: 'referrers:read' }, ({ auth }) => {
    if (auth.sandbox) return { body: { referrers: [] } };
    const list = state()
      .referrers.filter((r) => r.account_id === auth.account.id)
      .sort(
        (a, b) =>
          collator.compare(a.name, b.name) || a.name.localeCompare(b.name) || a.created_at.localeCompare(b.created_at),
      );
    return { body: { referrers: list.map(view) } };
  });

  app.api.add('GET', '/referrers/:id', { scope: 'referrers:read' }, ({ auth, params }) => {
    const r = auth.sandbox ? undefined : own(auth, params['id'] ?? '');
    if (!r) throw notFound('Referrer');
    return { body: view(r) };
  });

  app.api.add('POST', '/referrers', { scope: 'referrers:write' }, ({ auth, body }) => {
    const input = parseWith(createSchema, objectBody(body));
    const now = app.clock.nowIso();
    const rec: Referrer = {
      id: newId(auth.sandbox ? 'rfr_test_' : 'rfr_'),
      account_id: auth.account.id,
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      specialty: input.specialty ?? null,
      notes: input.notes ?? null,
      created_at: now,
      updated_at: now,
    };
    if (auth.sandbox) return { status: 201, body: { ...view(rec), test_mode: true } };
    state().referrers.push(rec);
    app.events.activity(
      auth.account.id,
      'referrer.created',
      'referrer',
      rec.id,
      { referrer_id: rec.id, name: rec.name },
      false,
    );
    return { status: 201, body: view(rec) };
  });

  app.api.add('PATCH', '/referrers/:id', { scope: 'referrers:write' }, ({ auth, params, body }) => {
    const input = parseWith(patchSchema, objectBody(body));
    const keys = Object.keys(input) as Editable[];
    if (keys.length === 0)
      throw badRequest('Nothing to update', [
        { field: 'body', message: 'give at least one of name, email, phone, specialty, notes' },
      ]);
    const id = params['id'] ?? '';
    if (auth.sandbox) {
      // Nothing is stored for sandbox keys: echo a mock with the changes applied to an empty record.
      const now = app.clock.nowIso();
      const mock: Referrer = {
        id: id.startsWith('rfr_test_') ? id : newId('rfr_test_'),
        account_id: auth.account.id,
        name: input.name ?? '',
        email: input.email ?? null,
        phone: input.phone ?? null,
        specialty: input.specialty ?? null,
        notes: input.notes ?? null,
        created_at: now,
        updated_at: now,
      };
      return { body: { ...view(mock), test_mode: true } };
    }
    const r = own(auth, id);
    if (!r) throw notFound('Referrer');
    const changed: string[] = [];
    for (const k of keys) {
      const v = input[k];
      if (v === undefined || r[k] === v) continue;
      if (k === 'name') r.name = v as string;
      else r[k] = v;
      changed.push(k);
    }
    if (changed.length > 0) {
      r.updated_at = app.clock.nowIso();
      app.events.activity(
        auth.account.id,
        'referrer.updated',
        'referrer',
        r.id,
        { referrer_id: r.id, fields: changed },
        false,
      );
    }
    return { body: view(r) };
  });

  app.api.add('DELETE', '/referrers/:id', { scope: 'referrers:write' }, ({ auth, params }) => {
    const id = params['id'] ?? '';
    if (auth.sandbox) return { body: { deleted: true, id, test_mode: true } };
    const r = own(auth, id);
    if (!r) return { body: { deleted: true, id, already_deleted: true } };
    state().referrers = state().referrers.filter((x) => x !== r);
    app.events.activity(
      auth.account.id,
      'referrer.deleted',
      'referrer',
      r.id,
      { referrer_id: r.id, name: r.name },
      false,
    );
    return { body: { deleted: true, id } };
  });
}
