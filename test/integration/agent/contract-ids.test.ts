// Ids named by the window cannot change an API path: every contract method that takes an id refuses
// `.`, `..`, `a/b` (and the like) with `invalid_args` naming that field, before any request leaves.
// The methods are found by walking the contract's argument schemas, so a new method with an id is
// checked here without being listed; each is called with otherwise valid arguments, so the id alone
// is what gets refused. The agent speaks with the emulator through a proxy that records every request.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isContractError, methods, type MethodName } from '@preload/contract';
import { id as idSchema } from '@preload/contract/method';
import { startAgent, type Agent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { LostAnswerProxy } from '../../support/network/lost-answer-proxy';

const scene = emulatorScene({ scratch: 'sb-ids-' });
let proxy: LostAnswerProxy;
let agent: Agent;

beforeAll(async () => {
  proxy = await LostAnswerProxy.start(scene.emulator.info.base_url);
  agent = await startAgent({
    dataDir: join(scene.scratch, 'data'),
    configDir: join(scene.scratch, 'config'),
    env: { SCANBRIDGE_API_URL: proxy.baseUrl, SCANBRIDGE_API_KEY: scene.emulator.info.keys.pro },
    secretStore: new MemorySecretStore(),
    transport: 'http',
    systemLanguage: 'es',
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
});
afterAll(async () => {
  await agent?.stop();
  await proxy?.stop();
});

type IdField = { path: string[]; literals: Record<string, unknown> };

/**
 * Every field of `schema` that is the contract's id schema, with the literal fields of the object
 * that holds it (a variant of a discriminated union is chosen by them: `{ action: 'share' }`).
 */
function idFields(schema: z.ZodType, at: string[] = [], literals: Record<string, unknown> = {}): IdField[] {
  if (schema === idSchema) return [{ path: at, literals }];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return idFields(schema.unwrap() as z.ZodType, at, literals);
  }
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    let own = literals;
    for (const [k, s] of Object.entries(shape))
      if (s instanceof z.ZodLiteral) own = withValue(own, [...at, k], s.value);
    return Object.entries(shape).flatMap(([k, s]) => idFields(s, [...at, k], own));
  }
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap((o) => idFields(o, at, literals));
  return [];
}

const png = `iVBORw0KGgo${'A'.repeat(120)}`;
/** Valid arguments of each method that takes an id, the id fields aside (they are set by the test). */
const VALID: Partial<Record<MethodName, Record<string, unknown>>> = {
  'folders:update': { mode: 'review' },
  'consent:start': { locale: 'es' },
  'consent:display-open': { signer_name: 'Ana Pérez' },
  'consent:email': { to: 'ana@example.cl', patient_name: 'Ana Pérez' },
  'referrers:update': { changes: { name: 'Dra. Soto' } },
  'exams:update': { fields: { name: 'Nuevo nombre' } },
  'inbox:upload': {},
  'patient:progress': { phase: 'reading' },
  'patient:sign': {
    signer_name: 'Ana Pérez',
    document: '11.111.111-1',
    birth_date: null,
    signature_png: png,
    accepted: true,
  },
  'reports:upload': { filename: 'informe.pdf', base64: 'JVBERi0xLjQK' },
  'share:email': { to: ['ana@example.cl'], locale: 'es' },
  'share:embed-enable': { show_year: true, show_study_type: true },
  'share:handout': { language: 'es', open: false },
  'takes:add': { label: 'Segunda toma', source: { kind: 'folder', path: '/tmp' } },
  'templates:update': { name: 'Plantilla' },
  'webhooks:update': { enabled: false },
};

/** Arguments for an id field inside one variant of a union. */
const VARIANT: Record<string, Record<string, unknown>> = {
  'takes:add source.inbox_id': { label: 'Segunda toma', source: { kind: 'inbox' } },
};

function withValue(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) throw new Error('empty path');
  if (rest.length === 0) return { ...base, [head]: value };
  const inner = (base[head] ?? {}) as Record<string, unknown>;
  return { ...base, [head]: withValue(inner, rest, value) };
}

const withIds = (Object.keys(methods) as MethodName[]).flatMap((name) =>
  idFields(methods[name].args as z.ZodType).map((field) => ({ name, ...field })),
);
const BAD = ['.', '..', 'a/b', '', '%2e%2e', 'ex_1?x=1', 'ex_1#x', 'a b', '\u0000'];

describe('ids in the contract', () => {
  it('finds the methods that take an id (the walk works)', () => {
    const names = new Set(withIds.map((m) => m.name));
    for (const n of [
      'takes:get',
      'takes:add',
      'consent:start',
      'webhooks:test',
      'templates:get',
      'referrers:delete',
      'notifications:mark-read',
      'support:get',
      'exams:get',
      'share:email',
      'reports:sign',
      'patient:sign',
    ] as const) {
      expect(names.has(n), n).toBe(true);
    }
    expect(withIds.find((m) => m.name === 'takes:add' && m.path.join('.') === 'source.inbox_id')).toBeDefined();
  });

  it('every method refuses `.`, `..`, `a/b`… as an id before any request reaches the service', async () => {
    // Let the start-up refreshes (account, notifications, activity) pass, then count.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const background = /\/api\/v1\/(me|notifications|activity)(\?|$)/;
    const before = proxy.seen.filter((r) => !background.test(r.path)).length;
    const accepted: string[] = [];
    for (const { name, path, literals } of withIds) {
      // Other id fields get a valid id: top-level ones outside any variant, or in the same variant
      // (a nested one lives in a variant of its own, e.g. takes:add's inbox source).
      const sameVariant = (m: IdField) =>
        Object.keys(m.literals).length === 0 || JSON.stringify(m.literals) === JSON.stringify(literals);
      const others = withIds
        .filter((m) => m.name === name && m.path !== path && m.path.length === 1 && sameVariant(m))
        .map((m) => m.path);
      let base = { ...(VARIANT[`${name} ${path.join('.')}`] ?? VALID[name] ?? {}), ...literals };
      for (const o of others) base = withValue(base, o, 'ok_id_1');
      for (const bad of BAD) {
        const args = withValue(base, path, bad);
        const err: unknown = await agent.host.call(name, args).then(
          () => null,
          (e: unknown) => e,
        );
        const field = path.join('.');
        if (
          !isContractError(err) ||
          err.code !== 'invalid_args' ||
          !(err.details ?? []).every((d) => d.field === field) ||
          (err.details ?? []).length === 0
        ) {
          accepted.push(
            `${name} ${field}=${JSON.stringify(bad)} → ${isContractError(err) ? `${err.code} ${JSON.stringify(err.details ?? [])}` : 'accepted'}`,
          );
        }
      }
    }
    expect(accepted).toEqual([]);
    expect(proxy.seen.filter((r) => !background.test(r.path)).slice(before)).toEqual([]);
  });

  it('a valid id still reaches its own path', async () => {
    const before = proxy.seen.length;
    const err: unknown = await agent.host.call('takes:get', { exam_id: 'ex_missing-1.a~b' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'not_found' });
    expect(proxy.seen.slice(before).map((r) => `${r.method} ${r.path}`)).toContain(
      'GET /api/v1/exams/ex_missing-1.a~b',
    );
  });
});
