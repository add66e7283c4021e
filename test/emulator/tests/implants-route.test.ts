import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Implant = {
  id: string;
  brand: string;
  product_line: string;
  length: number;
  diameter: number;
  platform: string | null;
  connection: string | null;
};
type Detail = { field: string; message: string };

describe('emulator: implant catalog (§2.11, §4.8)', () => {
  let emu: EmulatorProcess;
  const get = (query: string, key?: string) => api(emu.info, key ?? emu.info.keys.pro, 'GET', `/implants${query}`);
  /** Every entry, paged through brand queries. */
  let all: Implant[] = [];

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    const brands = (await get('')).json['brands'] as { brand: string; count: number }[];
    for (const b of brands)
      all.push(...((await get(`?brand=${encodeURIComponent(b.brand)}&limit=500`)).json['implants'] as Implant[]));
  });
  afterAll(async () => {
    all = [];
    await emu.dispose();
  });

  it('without a query lists the brands with a count each; at least 10 brands and 300 entries', async () => {
    const r = await get('');
    expect(r.status).toBe(200);
    const brands = r.json['brands'] as { brand: string; count: number }[];
    expect(brands.length).toBeGreaterThanOrEqual(10);
    expect(brands.map((b) => b.brand)).toEqual(
      expect.arrayContaining([
        'Straumann',
        'Nobel Biocare',
        'Zimmer Biomet',
        'Dentsply Sirona',
        'BioHorizons',
        'MIS',
        'Neodent',
        'Osstem',
        'MegaGen',
        'Alpha-Bio Tec',
      ]),
    );
    const total = brands.reduce((s, b) => s + b.count, 0);
    expect(total).toBeGreaterThanOrEqual(300);
    expect(all).toHaveLength(total);
    for (const b of brands) expect(all.filter((e) => e.brand === b.brand)).toHaveLength(b.count);
  });

  it('entries carry id, brand, product_line, length, diameter (mm), platform, connection; ids unique', () => {
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    for (const e of all) {
      expect(Object.keys(e).sort()).toEqual([
        'brand',
        'connection',
        'diameter',
        'id',
        'length',
        'platform',
        'product_line',
      ]);
      expect(e.length).toBeGreaterThanOrEqual(4);
      expect(e.length).toBeLessThanOrEqual(20);
      expect(e.diameter).toBeGreaterThanOrEqual(2.5);
      expect(e.diameter).toBeLessThanOrEqual(8);
    }
  });

  it('holds published sizes of real product lines (Straumann BLT, NobelActive, Astra Tech EV)', () => {
    const has = (line: string, d: number, l: number) =>
      all.some((e) => e.product_line === line && e.diameter === d && e.length === l);
    expect(has('Bone Level Tapered (BLT)', 4.1, 10)).toBe(true);
    expect(has('Bone Level Tapered (BLT)', 3.3, 12)).toBe(true);
    expect(has('NobelActive', 4.3, 11.5)).toBe(true);
    expect(has('NobelActive', 3.5, 13)).toBe(true);
    expect(has('Astra Tech Implant System EV', 4.2, 9)).toBe(true);
    expect(all.find((e) => e.product_line === 'Bone Level Tapered (BLT)' && e.diameter === 4.1)?.platform).toBe('RC');
  });

  it('brand matches case-insensitively and exactly, with limit/offset paging', async () => {
    const r = await get('?brand=sTrAuMaNn&limit=5&offset=0');
    expect(r.status).toBe(200);
    expect(r.json['brand']).toBe('Straumann');
    expect(r.json['limit']).toBe(5);
    expect(r.json['offset']).toBe(0);
    const total = r.json['total'] as number;
    expect(total).toBe(all.filter((e) => e.brand === 'Straumann').length);
    expect(r.json['implants']).toHaveLength(5);
    const page2 = await get('?brand=straumann&limit=5&offset=5');
    const ids1 = (r.json['implants'] as Implant[]).map((e) => e.id);
    const ids2 = (page2.json['implants'] as Implant[]).map((e) => e.id);
    expect(ids1.some((id) => ids2.includes(id))).toBe(false);
    const tail = await get(`?brand=straumann&limit=500&offset=${total - 2}`);
    expect(tail.json['implants']).toHaveLength(2);
    const partial = await get('?brand=straum');
    expect(partial.json['total']).toBe(0);
    expect(partial.json['implants']).toEqual([]);
    const def = await get('?brand=Osstem');
    expect(def.json['limit']).toBe(100);
  });

  it('search is free text over brand and product line: accent/case-insensitive, every word must match', async () => {
    const r = await get('?search=nobel%20ACTIVE');
    expect(r.status).toBe(200);
    const found = r.json['implants'] as Implant[];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((e) => e.brand === 'Nobel Biocare' && e.product_line === 'NobelActive')).toBe(true);
    expect(r.json['total']).toBe(all.filter((e) => e.product_line === 'NobelActive').length);
    const accents = await get(`?search=${encodeURIComponent('BRÅNEMARK')}`);
    expect((accents.json['implants'] as Implant[]).every((e) => e.product_line.startsWith('Brånemark'))).toBe(true);
    expect(accents.json['total']).toBeGreaterThan(0);
    const noAccent = await get('?search=branemark');
    expect(noAccent.json['total']).toBe(accents.json['total']);
    const both = await get('?search=straumann%20tapered');
    expect((both.json['implants'] as Implant[]).every((e) => e.product_line === 'Bone Level Tapered (BLT)')).toBe(true);
    const none = await get('?search=straumann%20nobelactive');
    expect(none.json['total']).toBe(0);
    const paged = await get('?search=straumann&limit=3&offset=3');
    expect(paged.json).toMatchObject({ limit: 3, offset: 3 });
    expect(paged.json['implants']).toHaveLength(3);
  });

  it('length + diameter: exact matches, and near_matches within 0.5 mm either way (inclusive, exact excluded)', async () => {
    const r = await get('?length=10&diameter=4.1');
    expect(r.status).toBe(200);
    const exact = r.json['implants'] as Implant[];
    const near = r.json['near_matches'] as Implant[];
    const expectExact = all.filter((e) => e.length === 10 && e.diameter === 4.1);
    expect(exact.length).toBeGreaterThan(0);
    expect(exact.map((e) => e.id).sort()).toEqual(expectExact.map((e) => e.id).sort());
    expect(r.json['total']).toBe(expectExact.length);
    const within = (a: number, b: number) => Math.abs(a - b) <= 0.5 + 1e-9;
    const expectNear = all.filter(
      (e) => within(e.length, 10) && within(e.diameter, 4.1) && !(e.length === 10 && e.diameter === 4.1),
    );
    expect(expectNear.length).toBeLessThanOrEqual(100);
    expect(near.map((e) => e.id).sort()).toEqual(expectNear.map((e) => e.id).sort());
    for (const e of near) {
      expect(within(e.length, 10) && within(e.diameter, 4.1)).toBe(true);
      expect(e.length === 10 && e.diameter === 4.1).toBe(false);
    }
    // 0.5 mm is inclusive: e.g. BioHorizons 4.6 × 10.5 (0.5 off in both) is near 4.1 × 10.
    const onEdge = expectNear.filter(
      (e) => Math.abs(Math.abs(e.diameter - 4.1) - 0.5) < 1e-9 || Math.abs(Math.abs(e.length - 10) - 0.5) < 1e-9,
    );
    expect(onEdge.length).toBeGreaterThan(0);
    expect(near.some((e) => e.diameter === 4.6 && e.length === 10.5)).toBe(true);
    for (const e of onEdge) expect(near.some((n) => n.id === e.id)).toBe(true);
    expect(near.some((e) => Math.abs(e.diameter - 4.1) > 0.5 || Math.abs(e.length - 10) > 0.5)).toBe(false);
  });

  it('length alone or diameter alone works too', async () => {
    const byLength = await get('?length=11.5&limit=500');
    const exactL = byLength.json['implants'] as Implant[];
    expect(exactL.length).toBe(all.filter((e) => e.length === 11.5).length);
    expect(exactL.every((e) => e.length === 11.5)).toBe(true);
    const nearL = byLength.json['near_matches'] as Implant[];
    expect(nearL.length).toBeGreaterThan(0);
    expect(nearL.every((e) => e.length !== 11.5 && Math.abs(e.length - 11.5) <= 0.5)).toBe(true);
    expect(nearL.some((e) => e.length === 12)).toBe(true);
    expect(nearL.some((e) => e.length === 11)).toBe(true);
    const byDiameter = await get('?diameter=3.75&limit=500');
    const exactD = byDiameter.json['implants'] as Implant[];
    expect(exactD.length).toBe(all.filter((e) => e.diameter === 3.75).length);
    expect(
      (byDiameter.json['near_matches'] as Implant[]).every(
        (e) => e.diameter !== 3.75 && Math.abs(e.diameter - 3.75) <= 0.5,
      ),
    ).toBe(true);
    const nothing = await get('?length=19.9&diameter=7.9');
    expect(nothing.json).toMatchObject({ implants: [], near_matches: [], total: 0 });
  });

  it('size lookup can be narrowed by brand', async () => {
    const r = await get('?brand=neodent&diameter=3.5');
    const exact = r.json['implants'] as Implant[];
    expect(exact.length).toBeGreaterThan(0);
    expect(exact.every((e) => e.brand === 'Neodent' && e.diameter === 3.5)).toBe(true);
    expect((r.json['near_matches'] as Implant[]).every((e) => e.brand === 'Neodent')).toBe(true);
  });

  it('invalid numbers and limits answer 400 validation_error naming the parameter', async () => {
    const cases: [string, string][] = [
      ['?length=abc', 'length'],
      ['?length=-4', 'length'],
      ['?length=0', 'length'],
      ['?diameter=4,1', 'diameter'],
      ['?diameter=', 'diameter'],
      ['?length=10&diameter=NaN', 'diameter'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?limit=ten', 'limit'],
      ['?brand=MIS&offset=-1', 'offset'],
      ['?search=%20%20', 'search'],
    ];
    for (const [q, field] of cases) {
      const r = await get(q);
      expect(r.status, q).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
      expect((r.json.error?.['details'] as Detail[])[0]?.field).toBe(field);
    }
  });

  it('the sandbox key sees exactly the live catalog; exams:read suffices (readonly key)', async () => {
    for (const q of ['', '?brand=MIS&limit=500', '?search=tapered', '?length=10&diameter=4.3']) {
      const live = await get(q);
      const sb = await get(q, emu.info.keys.sandbox);
      const ro = await get(q, emu.info.keys.readonly);
      expect(sb.status).toBe(200);
      expect(ro.status).toBe(200);
      expect(sb.json).toEqual(live.json);
      expect(ro.json).toEqual(live.json);
    }
    const none = await api(emu.info, null, 'GET', '/implants');
    expect(none.status).toBe(401);
  });
});
