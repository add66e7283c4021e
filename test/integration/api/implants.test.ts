import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '@main/core/api/client';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { clientFor, must } from '../../support/harness/api-clients';

describe('client: implant catalog against the emulator', () => {
  let emu: EmulatorProcess;
  let client: ApiClient;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    client = clientFor(emu, 'readonly').client;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('lists brands with counts, then the models of one brand page by page (exams:read is enough)', async () => {
    const { brands } = await client.implants.brands();
    expect(brands.length).toBeGreaterThan(1);
    const first = must(brands[0]);
    expect(first.count).toBeGreaterThan(0);
    const page1 = await client.implants.byBrand(first.brand, { limit: 2, offset: 0 });
    expect(page1.total).toBe(first.count);
    expect(page1.implants.every((i) => i.brand === first.brand)).toBe(true);
    expect(page1.implants.length).toBe(Math.min(2, first.count));
    const page2 = await client.implants.byBrand(first.brand, { limit: 2, offset: 2 });
    expect(page2.implants.map((i) => i.id)).not.toContain(page1.implants[0]?.id);
  });

  it('searches brand and product line as free text', async () => {
    const { brands } = await client.implants.brands();
    const word = must(must(brands[0]).brand.split(' ')[0]).toLowerCase();
    const found = await client.implants.search(word, { limit: 500 });
    expect(found.implants.length).toBeGreaterThan(0);
    expect(found.implants.every((i) => `${i.brand} ${i.product_line}`.toLowerCase().includes(word))).toBe(true);
  });

  it('looks up by size with near matches within 0.5 mm, exact ones apart', async () => {
    const { brands } = await client.implants.brands();
    const sample = must((await client.implants.byBrand(must(brands[0]).brand, { limit: 1 })).implants[0]);
    const r = await client.implants.bySize({ length: sample.length, diameter: sample.diameter });
    expect(r.implants.length).toBeGreaterThan(0);
    for (const i of r.implants) {
      expect(i.length).toBe(sample.length);
      expect(i.diameter).toBe(sample.diameter);
    }
    const exactIds = new Set(r.implants.map((i) => i.id));
    for (const n of r.near_matches) {
      expect(Math.abs(n.length - sample.length)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(n.diameter - sample.diameter)).toBeLessThanOrEqual(0.5);
      expect(exactIds.has(n.id)).toBe(false);
    }
  });
});
