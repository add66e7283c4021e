import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Slot = { x: number; y: number; w: number; h: number; label?: string };
type Page = { name?: string; slots: Slot[] };
type Template = {
  id: string;
  name: string;
  description: string | null;
  is_default: boolean;
  pages: Page[];
  created_at: string;
  updated_at: string;
};
type Detail = { field: string; message: string };

const twoUp: Page[] = [
  {
    name: 'Hoja 1',
    slots: [
      { x: 0, y: 0, w: 0.5, h: 1, label: 'Izquierda' },
      { x: 0.5, y: 0, w: 0.5, h: 1, label: 'Derecha' },
    ],
  },
];

describe('emulator: report templates (§2.10, §4.7, §5.5, §7)', () => {
  let emu: EmulatorProcess;
  const call = (method: string, path: string, body?: unknown, key?: string) =>
    api(emu.info, key ?? emu.info.keys.pro, method, path, body);
  const list = async (key?: string): Promise<Template[]> =>
    (await call('GET', '/templates', undefined, key)).json['templates'] as Template[];

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('every account sees the same read-only system defaults, tpl_sys_ ids, Spanish names, slots within 0..1', async () => {
    const defaults = (await list()).filter((t) => t.is_default);
    expect(defaults.length).toBeGreaterThanOrEqual(3);
    expect(defaults.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Panorámica y cortes transversales', 'Planificación de implante', 'ATM bilateral']),
    );
    for (const t of defaults) {
      expect(t.id).toMatch(/^tpl_sys_/);
      expect(t.pages.length).toBeGreaterThan(0);
      for (const p of t.pages) {
        expect(p.slots.length).toBeGreaterThan(0);
        for (const s of p.slots) {
          for (const v of [s.x, s.y, s.w, s.h]) expect(v >= 0 && v <= 1).toBe(true);
          expect(s.x + s.w).toBeLessThanOrEqual(1 + 1e-9);
          expect(s.y + s.h).toBeLessThanOrEqual(1 + 1e-9);
        }
      }
    }
    const free = (await list(emu.info.keys.free)).filter((t) => t.is_default);
    expect(free).toEqual(defaults);
    const one = await call('GET', `/templates/${defaults[0]?.id}`, undefined, emu.info.keys.free);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(defaults[0]);
  });

  it('creates an own template (201, tpl_ id, is_default false) listed after the system defaults', async () => {
    const r = await call('POST', '/templates', {
      name: 'Mi lámina 2×1',
      description: 'Dos vistas lado a lado',
      pages: twoUp,
    });
    expect(r.status).toBe(201);
    const t = r.json as unknown as Template;
    expect(t.id).toMatch(/^tpl_(?!sys_|test_)/);
    expect(t).toMatchObject({
      name: 'Mi lámina 2×1',
      description: 'Dos vistas lado a lado',
      is_default: false,
      pages: twoUp,
    });
    const all = await list();
    const firstOwn = all.findIndex((x) => !x.is_default);
    expect(all.slice(firstOwn).every((x) => !x.is_default)).toBe(true);
    expect(all.some((x) => x.id === t.id)).toBe(true);
    expect((await call('GET', `/templates/${t.id}`)).json).toEqual(r.json);
    // Other accounts do not see it.
    expect((await list(emu.info.keys.clinica)).some((x) => x.id === t.id)).toBe(false);
    expect((await call('GET', `/templates/${t.id}`, undefined, emu.info.keys.clinica)).status).toBe(404);
  });

  it('rejects slot coordinates outside 0..1 and slots that leave the page, naming the field', async () => {
    const cases: [Slot, string][] = [
      [{ x: -0.1, y: 0, w: 0.5, h: 0.5 }, 'pages.0.slots.0.x'],
      [{ x: 0, y: 1.2, w: 0.5, h: 0.5 }, 'pages.0.slots.0.y'],
      [{ x: 0, y: 0, w: 1.5, h: 0.5 }, 'pages.0.slots.0.w'],
      [{ x: 0.6, y: 0, w: 0.5, h: 0.5 }, 'pages.0.slots.0.w'],
      [{ x: 0, y: 0.7, w: 0.5, h: 0.4 }, 'pages.0.slots.0.h'],
      [{ x: 0, y: 0, w: 0, h: 0.5 }, 'pages.0.slots.0.w'],
    ];
    for (const [slot, field] of cases) {
      const r = await call('POST', '/templates', { name: 'Mala', pages: [{ slots: [slot] }] });
      expect(r.status).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
      expect((r.json.error?.['details'] as Detail[]).map((d) => d.field)).toContain(field);
    }
    const edge = await call('POST', '/templates', {
      name: 'Borde exacto',
      pages: [
        {
          slots: [
            { x: 0, y: 0, w: 1, h: 1 },
            { x: 0.3, y: 0.3, w: 0.7, h: 0.7 },
          ],
        },
      ],
    });
    expect(edge.status).toBe(201);
  });

  it('rejects a missing name, missing or empty pages, a page without slots, wrong types and unknown fields', async () => {
    const bodies: [unknown, string][] = [
      [{ pages: twoUp }, 'name'],
      [{ name: 'x'.repeat(201), pages: twoUp }, 'name'],
      [{ name: 'Sin páginas' }, 'pages'],
      [{ name: 'Vacía', pages: [] }, 'pages'],
      [{ name: 'Hoja vacía', pages: [{ slots: [] }] }, 'pages.0.slots'],
      [{ name: 'Tipos', pages: [{ slots: [{ x: '0', y: 0, w: 1, h: 1 }] }] }, 'pages.0.slots.0.x'],
      [{ name: 'Etiqueta', pages: [{ slots: [{ x: 0, y: 0, w: 1, h: 1, label: 7 }] }] }, 'pages.0.slots.0.label'],
    ];
    for (const [body, field] of bodies) {
      const r = await call('POST', '/templates', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect((r.json.error?.['details'] as Detail[]).map((d) => d.field)).toContain(field);
    }
    const extra = await call('POST', '/templates', { name: 'Extra', pages: twoUp, is_default: true });
    expect(extra.status).toBe(400);
  });

  it('PATCH updates an owned template and validates pages; activity records created/updated/deleted', async () => {
    const t = (await call('POST', '/templates', { name: 'Editable', pages: twoUp })).json as unknown as Template;
    const newPages: Page[] = [{ slots: [{ x: 0.1, y: 0.1, w: 0.8, h: 0.8, label: 'Única' }] }];
    const r = await call('PATCH', `/templates/${t.id}`, { name: 'Editada', pages: newPages });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: t.id, name: 'Editada', pages: newPages, description: null, is_default: false });
    const bad = await call('PATCH', `/templates/${t.id}`, { pages: [{ slots: [{ x: 0, y: 0, w: 2, h: 1 }] }] });
    expect(bad.status).toBe(400);
    expect((await call('PATCH', `/templates/${t.id}`, {})).status).toBe(400);
    expect((await call('GET', `/templates/${t.id}`)).json['name']).toBe('Editada');
    const d = await call('DELETE', `/templates/${t.id}`);
    expect(d.json).toEqual({ deleted: true, id: t.id });
    const actions = (
      (await call('GET', '/activity?limit=100')).json['activity'] as { action: string; resource_id: string }[]
    )
      .filter((a) => a.resource_id === t.id)
      .map((a) => a.action);
    expect(actions).toEqual(['template.deleted', 'template.updated', 'template.created']);
  });

  it('PATCH or DELETE on a system default answers 400 validation_error and changes nothing', async () => {
    const sys = (await list()).find((t) => t.is_default) as Template;
    const p = await call('PATCH', `/templates/${sys.id}`, { name: 'Mía ahora' });
    expect(p.status).toBe(400);
    expect(p.json.error?.code).toBe('validation_error');
    const d = await call('DELETE', `/templates/${sys.id}`);
    expect(d.status).toBe(400);
    expect(d.json.error?.code).toBe('validation_error');
    const sb = await call('DELETE', `/templates/${sys.id}`, undefined, emu.info.keys.sandbox);
    expect(sb.status).toBe(400);
    expect((await call('GET', `/templates/${sys.id}`)).json).toEqual(sys);
  });

  it('DELETE of an own template is idempotent; unknown ids: GET/PATCH 404, DELETE already_deleted', async () => {
    const t = (await call('POST', '/templates', { name: 'Temporal', pages: twoUp })).json as unknown as Template;
    expect((await call('DELETE', `/templates/${t.id}`)).json).toEqual({ deleted: true, id: t.id });
    expect((await call('DELETE', `/templates/${t.id}`)).json).toEqual({
      deleted: true,
      id: t.id,
      already_deleted: true,
    });
    expect((await call('GET', `/templates/${t.id}`)).status).toBe(404);
    expect((await call('PATCH', `/templates/${t.id}`, { name: 'Otra' })).status).toBe(404);
  });

  it('the readonly key lacks templates:read and templates:write (403)', async () => {
    const ro = emu.info.keys.readonly;
    expect((await call('GET', '/templates', undefined, ro)).json.error?.['required_scope']).toBe('templates:read');
    expect((await call('POST', '/templates', { name: 'X', pages: twoUp }, ro)).json.error?.['required_scope']).toBe(
      'templates:write',
    );
  });

  describe('sandbox key', () => {
    it('GET lists only the system defaults, not the live account own templates', async () => {
      await call('POST', '/templates', { name: 'Solo en vivo', pages: twoUp });
      const sb = await list(emu.info.keys.sandbox);
      expect(sb.length).toBeGreaterThan(0);
      expect(sb.every((t) => t.is_default)).toBe(true);
      expect(sb).toEqual((await list()).filter((t) => t.is_default));
    });

    it('writes answer a validated tpl_test_ mock and store nothing', async () => {
      const before = await list();
      const sb = emu.info.keys.sandbox;
      const c = await call('POST', '/templates', { name: 'Prueba', pages: twoUp }, sb);
      expect(c.status).toBe(201);
      expect(c.json['id']).toMatch(/^tpl_test_/);
      expect(c.json).toMatchObject({ name: 'Prueba', is_default: false, pages: twoUp, test_mode: true });
      expect(
        (await call('POST', '/templates', { name: 'Mala', pages: [{ slots: [{ x: 2, y: 0, w: 1, h: 1 }] }] }, sb))
          .status,
      ).toBe(400);
      expect((await call('GET', `/templates/${c.json['id'] as string}`, undefined, sb)).status).toBe(404);
      const own = before.find((t) => !t.is_default) as Template;
      const p = await call('PATCH', `/templates/${own.id}`, { name: 'Sandbox cambia' }, sb);
      expect(p.status).toBe(200);
      expect(p.json['id']).toMatch(/^tpl_test_/);
      const d = await call('DELETE', `/templates/${own.id}`, undefined, sb);
      expect(d.json).toEqual({ deleted: true, id: own.id, test_mode: true });
      expect(await list()).toEqual(before);
    });
  });
});
