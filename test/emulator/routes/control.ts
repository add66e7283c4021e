import { z } from 'zod';
import type { App } from '../core/app';
import { faultSchema } from '../core/faults';
import { parseJson, readBody } from '../core/http';
import { objectBody, parseWith } from '../core/validate';

/**
 * The control API of CONTRACTS.md §1 (tests only, no auth): faults, clock, mail log. Routes that
 * act on one area (ticket replies, remote consent, thumbnails) are registered by that area's module.
 */
export function register(app: App): void {
  app.control.add('POST', '/faults', { scope: null }, async ({ req }) => {
    const fault = parseWith(faultSchema, objectBody(parseJson(await readBody(req))));
    app.faults.add(fault);
    return { status: 201, body: { armed: app.faults.list() } };
  });
  app.control.add('GET', '/faults', { scope: null }, () => ({ body: { armed: app.faults.list() } }));
  app.control.add('DELETE', '/faults', { scope: null }, () => {
    app.faults.clear();
    return { body: { armed: [] } };
  });

  app.control.add('POST', '/clock', { scope: null }, async ({ req }) => {
    const { advance_seconds } = parseWith(
      z.object({
        advance_seconds: z
          .number()
          .min(0)
          .max(10 * 365 * 86400),
      }),
      objectBody(parseJson(await readBody(req))),
    );
    app.store.state.clock_offset_ms = app.clock.offsetMs + advance_seconds * 1000;
    app.store.save();
    await app.clock.advance(advance_seconds);
    return { body: { now: app.clock.nowIso(), time_scale: app.clock.timeScale } };
  });
  app.control.add('GET', '/clock', { scope: null }, () => ({
    body: { now: app.clock.nowIso(), time_scale: app.clock.timeScale },
  }));

  app.control.add('GET', '/mail', { scope: null }, ({ query }) => {
    const to = query.get('to');
    const mail = app.store.state.mail.filter((m) => !to || m.to.includes(to) || m.cc.includes(to));
    return { body: { mail } };
  });

  app.control.add('POST', '/limits', { scope: null }, async ({ req }) => {
    const { process_zip_timeout_seconds } = parseWith(
      z.object({ process_zip_timeout_seconds: z.number().positive().max(3600) }).strict(),
      objectBody(parseJson(await readBody(req))),
    );
    app.config.processZipTimeoutSeconds = process_zip_timeout_seconds;
    return { body: { process_zip_timeout_seconds } };
  });

  app.control.add('GET', '/routes', { scope: null }, () => ({ body: { api: app.api.routes() } }));

  // Robustness check: an unexpected exception must become 500 internal_error while the server keeps serving.
  app.control.add('POST', '/crash-test', { scope: null }, () => {
    throw new Error('crash-test: deliberate unexpected exception');
  });
}
