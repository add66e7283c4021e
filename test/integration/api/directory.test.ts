import { describe, expect, it } from 'vitest';
import { must, proClientScene } from '../../support/harness/api-clients';

describe('client: referrers and report templates against the emulator', () => {
  const ctx = proClientScene();

  it('keeps a referrer directory sorted by name, with create, read, update and idempotent delete', async () => {
    const zu = await ctx.client.referrers.create({ name: 'Zúñiga Pedro', specialty: 'Endodoncia' });
    const al = await ctx.client.referrers.create({
      name: 'Álvarez Carmen',
      email: 'alvarez@dental.cl',
      phone: '+56 9 1234 5678',
    });
    expect(zu.id).toMatch(/^rfr_/);
    expect(al.email).toBe('alvarez@dental.cl');
    const list = await ctx.client.referrers.list();
    expect(list.referrers.map((r) => r.name)).toEqual(['Álvarez Carmen', 'Zúñiga Pedro']);
    expect((await ctx.client.referrers.get(zu.id)).specialty).toBe('Endodoncia');
    const upd = await ctx.client.referrers.update(zu.id, { phone: '+56 2 2345 6789' });
    expect(upd.phone).toBe('+56 2 2345 6789');
    expect(upd.specialty).toBe('Endodoncia');
    expect((await ctx.client.referrers.remove(zu.id)).deleted).toBe(true);
    expect((await ctx.client.referrers.remove(zu.id)).already_deleted).toBe(true);
    await expect(ctx.client.referrers.get(zu.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(ctx.client.referrers.create({ name: '' })).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('lists system templates first, manages own templates, and refuses to change a system one', async () => {
    const before = await ctx.client.templates.list();
    const system = before.templates.filter((t) => t.is_default);
    expect(system.length).toBeGreaterThan(0);
    const own = await ctx.client.templates.create({
      name: 'Panorámica + 2 cortes',
      description: 'Lámina propia',
      pages: [
        {
          name: 'Página 1',
          slots: [
            { x: 0, y: 0, w: 1, h: 0.5, label: 'Panorámica' },
            { x: 0, y: 0.5, w: 0.5, h: 0.5 },
          ],
        },
      ],
    });
    expect(own.id).toMatch(/^tpl_/);
    expect(own.is_default).toBe(false);
    expect(own.pages?.[0]?.slots).toHaveLength(2);
    const after = await ctx.client.templates.list();
    expect(after.templates[0]?.is_default).toBe(true);
    expect(after.templates.map((t) => t.id)).toContain(own.id);
    expect((await ctx.client.templates.get(must(system[0]).id)).is_default).toBe(true);
    expect((await ctx.client.templates.update(own.id, { name: 'Renombrada' })).name).toBe('Renombrada');
    await expect(ctx.client.templates.update(must(system[0]).id, { name: 'x' })).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(ctx.client.templates.remove(must(system[0]).id)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(
      ctx.client.templates.create({ name: 'fuera', pages: [{ slots: [{ x: 0, y: 0, w: 1.5, h: 1 }] }] }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    expect((await ctx.client.templates.remove(own.id)).deleted).toBe(true);
    expect((await ctx.client.templates.remove(own.id)).already_deleted).toBe(true);
  });
});
