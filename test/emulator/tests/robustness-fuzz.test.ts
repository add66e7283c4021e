import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Route = { method: string; path: string; scope: string | null };

/** mulberry32: a small seeded generator, so a failing run can be replayed with FUZZ_SEED. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percent-encodes text; a lone surrogate (not encodable) goes out as its raw, invalid UTF-8 bytes. */
function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

const FIELD_NAMES = [
  'name',
  'email',
  'phone',
  'specialty',
  'notes',
  'description',
  'pages',
  'slots',
  'x',
  'y',
  'w',
  'h',
  'label',
  'subject',
  'message',
  'category',
  'exam_id',
  'exam_type',
  'patient_name',
  'patient_id',
  'birth_date',
  'reason',
  'expiration_days',
  'upload_mode',
  'files',
  'size',
  'zip_size_bytes',
  'radiograph_subtype',
  'to',
  'cc',
  'locale',
  'country_code',
  'signer_name',
  'signer_rut',
  'signature_image',
  'accepted',
  'pdf_base64',
  'filename',
  'url',
  'events',
  'enabled',
  'title',
  'show_year',
  'show_study_type',
  '__proto__',
  'constructor',
];
/** Plausible bodies per route, so that one-field mutations reach validation beyond the JSON parser. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  'POST /exams': {
    name: 'Fuzz',
    exam_type: 'cbct',
    patient_name: 'Juan Pérez',
    birth_date: '1980-01-31',
    files: [{ name: 'a.dcm', size: 4 }],
  },
  'PATCH /exams/:id': { name: 'Otro', reason: 'Control', expiration_days: 30 },
  'POST /exams/:id/share': { to: 'dr@clinica.cl', message: 'Hola', locale: 'es' },
  'POST /exams/:id/extras': { label: 'Toma 2', files: [{ name: 'b.dcm', size: 4 }] },
  'POST /exams/:id/consent': { country_code: 'CL', locale: 'es' },
  'POST /exams/:id/consent/sign-inperson': {
    signer_name: 'Ana Rojas',
    signer_rut: '11.111.111-1',
    signature_image: 'iVBORw0KGgo=',
    accepted: true,
  },
  'POST /exams/:id/consent/email': { to: 'paciente@correo.cl', patient_name: 'Ana' },
  'POST /exams/:id/report': { pdf_base64: Buffer.from('%PDF-1.4\n%%EOF').toString('base64'), filename: 'informe.pdf' },
  'POST /exams/:id/embed': { title: 'Visor', show_year: true, show_study_type: false },
  'POST /webhooks': { url: 'https://127.0.0.1/hook', events: ['exam.created'], description: 'Fuzz' },
  'PATCH /webhooks/:id': { enabled: false, description: 'x' },
  'POST /referrers': { name: 'Dr. Uno', email: 'uno@clinica.cl', specialty: 'Ortodoncia' },
  'PATCH /referrers/:id': { phone: '+56 2 2345 6789' },
  'POST /templates': { name: 'Lámina', pages: [{ name: 'Hoja', slots: [{ x: 0, y: 0, w: 0.5, h: 0.5, label: 'A' }] }] },
  'PATCH /templates/:id': { name: 'Lámina 2' },
  'POST /support/tickets': { subject: 'Ayuda', message: 'Texto', category: 'bug' },
};

const QUERY_NAMES = [
  'limit',
  'offset',
  'before',
  'action',
  'unread_only',
  'brand',
  'search',
  'length',
  'diameter',
  'type',
  'to',
];

describe('emulator: fuzzing every API route with garbage', () => {
  let emu: EmulatorProcess;
  let key: string;
  const real: Record<string, string> = {};

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    key = emu.info.keys.ultra;
    const make = async (path: string, body: unknown): Promise<string | undefined> => {
      const r = await api(emu.info, key, 'POST', path, body);
      return r.status === 201 ? (r.json['id'] as string) : undefined;
    };
    const ids = {
      exam: await make('/exams', { name: 'Fuzz', files: [{ name: 'a.dcm', size: 4 }] }),
      referrer: await make('/referrers', { name: 'Dr. Fuzz' }),
      template: await make('/templates', { name: 'Fuzz', pages: [{ slots: [{ x: 0, y: 0, w: 1, h: 1 }] }] }),
      ticket: await make('/support/tickets', { subject: 'Fuzz', message: 'Fuzz' }),
    };
    for (const [k, v] of Object.entries(ids)) if (v) real[k] = v;
    if (ids.ticket) await emu.control('POST', `/tickets/${ids.ticket}/replies`, { body: 'Fuzz' });
    const ntf = (await api(emu.info, key, 'GET', '/notifications')).json['notifications'] as
      { id: string }[] | undefined;
    if (ntf?.[0]) real['notification'] = ntf[0].id;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('a few hundred garbage requests: never a 500, never a hang, the server stays up', async () => {
    const seed = Number(process.env['FUZZ_SEED'] ?? Date.now() % 2 ** 31);
    console.log(`fuzz seed ${seed} (replay with FUZZ_SEED=${seed})`);
    const rand = rng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const int = (n: number) => Math.floor(rand() * n);

    const routes = (await emu.control<{ api: Route[] }>('GET', '/routes')).api;
    expect(routes.length).toBeGreaterThan(20);

    const garbageString = (): string =>
      pick([
        '',
        ' ',
        'x',
        'ñandú ÁÉÍÓÚ',
        '\u0000',
        '\ud800',
        '../../../etc/passwd',
        '<script>alert(1)</script>',
        "' OR 1=1 --",
        '%00',
        'a'.repeat(int(5000)),
        '2024-02-30',
        '9999-12-31T23:59:59Z',
        '-1',
        '1e309',
        'NaN',
        'true',
        'null',
        '{}',
        '💥'.repeat(int(50)),
      ]);
    const garbageValue = (depth = 0): unknown => {
      switch (int(depth > 2 ? 6 : 9)) {
        case 0:
          return garbageString();
        case 1:
          return pick([0, -1, 1, 0.5, 1e308, -1e308, 2 ** 53 + 1, 3.999999999999, 10001]);
        case 2:
          return pick([true, false]);
        case 3:
          return null;
        case 4:
          return pick(['a@b.cl', 'https://127.0.0.1/x', 'cbct', 'zip', 'files', 'general', 'es', 'CL']);
        case 5:
          return int(2) ? [] : {};
        case 6:
          return Array.from({ length: int(4) }, () => garbageValue(depth + 1));
        case 7:
          return garbageObject(depth + 1);
        default:
          return [{ name: garbageString(), size: pick([-1, 0, 1, 1e20, 'big']) }];
      }
    };
    function garbageObject(depth = 0): Record<string, unknown> {
      const o: Record<string, unknown> = {};
      for (let i = int(5); i > 0; i--)
        Object.defineProperty(o, pick(FIELD_NAMES), {
          value: garbageValue(depth),
          enumerable: true,
          configurable: true,
          writable: true,
        });
      return o;
    }
    const garbageBody = (): { body?: string | Uint8Array<ArrayBuffer>; type?: string } => {
      switch (int(9)) {
        case 0:
          return {};
        case 1:
          return { body: '', type: 'application/json' };
        case 2:
          return {
            body: new Uint8Array(Array.from({ length: int(2048) }, () => int(256))),
            type: pick(['application/json', 'application/octet-stream']),
          };
        case 3:
          return {
            body: pick(['{', '{"a":', '[1,2', 'nul', '{"name":"x"}}', '\ufeff{}', '{"a":1e99999}']),
            type: 'application/json',
          };
        case 4:
          return { body: `${'['.repeat(5000)}${']'.repeat(5000)}`, type: 'application/json' };
        case 5:
          return { body: JSON.stringify(garbageValue()), type: pick(['application/json', 'text/plain']) };
        case 6:
          return {
            body: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
            type: 'application/json',
          };
        default:
          return { body: JSON.stringify(garbageObject()), type: 'application/json' };
      }
    };
    /** The sample with one field replaced by garbage, removed, or an unknown field added. */
    const mutated = (sample: Record<string, unknown>): { body: string; type: string } => {
      const copy: Record<string, unknown> = structuredClone(sample);
      const field = pick(Object.keys(copy));
      switch (int(3)) {
        case 0:
          copy[field] = garbageValue();
          break;
        case 1:
          Reflect.deleteProperty(copy, field);
          break;
        default:
          copy[pick(FIELD_NAMES)] = garbageValue();
      }
      return { body: JSON.stringify(copy), type: 'application/json' };
    };
    const param = (name: string, path: string): string => {
      if (int(3) === 0)
        return pick([
          'x',
          '..',
          '%2e%2e',
          '%00',
          'a'.repeat(300),
          'ñ',
          '-1',
          '0',
          '99999999999999999999',
          '1.5',
          'null',
          '%F0%9F%92%A5',
          '%E0%A4%A',
        ]);
      if (name === 'index') return pick(['1', '2', '3']);
      const group = path.split('/')[1] ?? '';
      const guess = {
        exams: 'exam',
        referrers: 'referrer',
        templates: 'template',
        support: 'ticket',
        notifications: 'notification',
      }[group];
      return (guess && real[guess]) ?? `${group.slice(0, 3)}_${'z'.repeat(int(20))}`;
    };
    const query = (): string => {
      const parts: string[] = [];
      for (let i = int(4); i > 0; i--)
        parts.push(`${pick(QUERY_NAMES)}=${encodeLoosely(garbageString().slice(0, 200))}`);
      if (int(6) === 0) parts.push('%zz=%', '&&&=');
      return parts.length ? `?${parts.join('&')}` : '';
    };

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const total = Number(process.env['FUZZ_COUNT'] ?? 400);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        next++;
        const route = pick(routes);
        const method = int(10) === 0 ? pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) : route.method;
        const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) =>
          param(name, route.path).replace(/[/?#]/g, encodeLoosely),
        );
        const sample = SAMPLES[`${method} ${route.path}`];
        const { body, type } =
          method === 'GET' || method === 'HEAD' ? {} : sample && int(2) === 0 ? mutated(sample) : garbageBody();
        const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
        if (type) headers['Content-Type'] = type;
        const label = `${method} ${path.slice(0, 120)}${body === undefined ? '' : ` body=${String(typeof body === 'string' ? body.slice(0, 60) : `<${body.length} bytes>`)}`}`;
        try {
          const res = await fetch(`${emu.info.base_url}${path}${query()}`, {
            method,
            headers,
            body,
            signal: AbortSignal.timeout(10_000),
          });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) failures.push(`${res.status} ← ${label}`);
        } catch (err) {
          failures.push(`${err instanceof Error ? err.name : 'error'} ← ${label}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    console.log(`fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    expect(failures, failures.join('\n')).toEqual([]);
    expect([...statuses.values()].reduce((s, n) => s + n, 0)).toBe(total);
    expect((await api(emu.info, key, 'GET', '/me')).status).toBe(200);
    expect(emu.stderr()).not.toMatch(/failed|unexpected error/);
  });
});
