// The back-office methods of the contract (referrers, report templates, implant catalog) as the window
// calls them — arguments through the contract's schemas, then the handlers — against a real emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName, MethodResult } from '@preload/contract';
import { ContractFailure, parseArgs, toContractFailure } from '@main/core/agent/host/contract-host';
import { createReferrersHandlers } from '@main/core/agent/handlers/handlers-referrers';
import { createImplantsHandlers } from '@main/core/agent/handlers/handlers-implants';
import { createTemplatesHandlers } from '@main/core/agent/handlers/handlers-templates';
import { ServiceConnection } from '@main/core/agent/service/service-connection';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

let emulator: EmulatorProcess;
beforeAll(async () => {
  emulator = await EmulatorProcess.start();
});
afterAll(async () => {
  await emulator?.dispose();
});

type BackOffice = ReturnType<typeof createReferrersHandlers> &
  ReturnType<typeof createTemplatesHandlers> &
  ReturnType<typeof createImplantsHandlers>;
type Name = keyof BackOffice & MethodName;

/** Calls a method as the bridge does: raw arguments parsed by the contract, errors as ContractFailure. */
function caller(kind: 'pro' | 'sandbox') {
  const service = new ServiceConnection('test', () => undefined);
  service.configure(emulator.info.base_url, emulator.info.keys[kind]);
  const handlers: BackOffice = {
    ...createReferrersHandlers({ service }),
    ...createTemplatesHandlers({ service }),
    ...createImplantsHandlers({ service }),
  };
  return async <M extends Name>(name: M, raw: unknown): Promise<MethodResult<M>> => {
    try {
      const handler = handlers[name] as (a: unknown) => Promise<MethodResult<M>>;
      return await handler(parseArgs(name, raw));
    } catch (e) {
      throw toContractFailure(e);
    }
  };
}

const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof ContractFailure) return e.code;
    throw e;
  }
  throw new Error('expected a failure');
};

describe('referrers', () => {
  it('creates, changes only what is given (an empty text clears a field) and deletes on the service', async () => {
    const call = caller('pro');
    const created = await call('referrers:create', {
      name: ' Dr. Iñaki Soto ',
      email: 'inaki@sonrisa.cl',
      phone: '',
      specialty: 'Periodoncia',
    });
    expect(created.sandbox).toBe(false);
    expect(created.referrer).toMatchObject({
      name: 'Dr. Iñaki Soto',
      email: 'inaki@sonrisa.cl',
      phone: null,
      specialty: 'Periodoncia',
    });
    const updated = await call('referrers:update', {
      id: created.referrer.id,
      changes: { specialty: '', phone: '+56 9 8765 4321' },
    });
    expect(updated.referrer).toMatchObject({
      name: 'Dr. Iñaki Soto',
      email: 'inaki@sonrisa.cl',
      phone: '+56 9 8765 4321',
      specialty: null,
    });
    const onService = (await api(emulator.info, emulator.info.keys.pro, 'GET', `/referrers/${created.referrer.id}`))
      .json;
    expect(onService).toMatchObject({ email: 'inaki@sonrisa.cl', phone: '+56 9 8765 4321', specialty: null });
    expect((await call('referrers:list', {})).referrers.map((r) => r.id)).toContain(created.referrer.id);
    expect(await call('referrers:delete', { id: created.referrer.id })).toEqual({
      deleted: true,
      already_deleted: false,
      sandbox: false,
    });
    expect((await call('referrers:delete', { id: created.referrer.id })).already_deleted).toBe(true);
  });

  it('refuses a bad e-mail or an empty change before calling the service', async () => {
    const call = caller('pro');
    const before = (await call('referrers:list', {})).referrers.length;
    expect(await codeOf(call('referrers:create', { name: 'X', email: 'x@clinica' }))).toBe('invalid_args');
    expect(await codeOf(call('referrers:create', { name: '   ' }))).toBe('invalid_args');
    expect(await codeOf(call('referrers:update', { id: 'rfr_x', changes: {} }))).toBe('invalid_args');
    expect((await call('referrers:list', {})).referrers.length).toBe(before);
  });

  it('says when a sandbox key stored nothing', async () => {
    const call = caller('sandbox');
    const saved = await call('referrers:create', { name: 'Sandbox dentist' });
    expect(saved.sandbox).toBe(true);
    expect(saved.referrer.id).toMatch(/^rfr_test_/);
    expect(await call('referrers:list', {})).toEqual({ referrers: [], sandbox: true });
  });
});

describe('report templates', () => {
  const a = { x: 0.05, y: 0.05, w: 0.4, h: 0.25 };
  const b = { x: 0.5123, y: 0.3, w: 0.4877, h: 0.7 };
  const pages = [{ name: 'Uno', slots: [{ ...a, label: 'Panorámica' }, b] }];

  it('saves two slots and reads them back with the same coordinates; a rename leaves the pages alone', async () => {
    const call = caller('pro');
    const saved = await call('templates:create', { name: 'Dos recuadros', pages });
    expect(saved.template.is_default).toBe(false);
    const read = await call('templates:get', { id: saved.template.id });
    expect(read.pages).toEqual([
      {
        name: 'Uno',
        slots: [
          { ...a, label: 'Panorámica' },
          { ...b, label: null },
        ],
      },
    ]);
    const renamed = await call('templates:update', { id: saved.template.id, name: 'Dos recuadros (v2)' });
    expect(renamed.template.name).toBe('Dos recuadros (v2)');
    expect(renamed.template.pages).toEqual(read.pages);
    expect((await call('templates:delete', { id: saved.template.id })).deleted).toBe(true);
  });

  it('refuses slots outside the page and pages without slots before calling the service', async () => {
    const call = caller('pro');
    expect(
      await codeOf(call('templates:create', { name: 'Fuera', pages: [{ slots: [{ x: 0.7, y: 0, w: 0.4, h: 0.2 }] }] })),
    ).toBe('invalid_args');
    expect(await codeOf(call('templates:create', { name: 'Vacía', pages: [{ slots: [] }] }))).toBe('invalid_args');
    expect(
      await codeOf(
        call('templates:create', { name: 'Negativa', pages: [{ slots: [{ x: -0.1, y: 0, w: 0.4, h: 0.2 }] }] }),
      ),
    ).toBe('invalid_args');
  });

  it('lists system defaults as read-only, and the service refuses to change one', async () => {
    const call = caller('pro');
    const list = await call('templates:list', {});
    const system = list.templates.find((x) => x.is_default);
    expect(system).toBeDefined();
    expect(await codeOf(call('templates:delete', { id: system?.id ?? '' }))).toBe('validation_error');
  });
});

describe('implant catalog', () => {
  it('answers a size look-up with exact matches and near matches within 0.5 mm, and pages a brand', async () => {
    const call = caller('pro');
    const size = await call('implants:size', { diameter: 4.1, length: 10 });
    expect(size.implants.length).toBeGreaterThan(0);
    for (const e of size.implants) expect([e.diameter, e.length]).toEqual([4.1, 10]);
    expect(size.near_matches.length).toBeGreaterThan(0);
    for (const e of size.near_matches) {
      expect(Math.abs(e.diameter - 4.1)).toBeLessThanOrEqual(0.5 + 1e-9);
      expect(Math.abs(e.length - 10)).toBeLessThanOrEqual(0.5 + 1e-9);
      expect(e.diameter === 4.1 && e.length === 10).toBe(false);
    }
    expect(await codeOf(call('implants:size', {}))).toBe('invalid_args');

    const brands = await call('implants:brands', {});
    const big = [...brands.brands].sort((a, b) => b.count - a.count)[0];
    const first = await call('implants:models', { brand: big?.brand ?? '', limit: 25, offset: 0 });
    const second = await call('implants:models', { brand: big?.brand ?? '', limit: 25, offset: 25 });
    expect(first.total).toBe(big?.count);
    expect(first.implants).toHaveLength(25);
    expect(second.offset).toBe(25);
    expect(second.implants[0]).not.toEqual(first.implants[0]);
  });
});
