// The referrers on the service (API v1 §4.6). A sandbox key reads an empty list and stores
// nothing (§5.5): every answer carries `sandbox` so the window can say so.
import type { ReferrerView } from '../../../../preload/contract';
import type { CreateReferrerRequest, Referrer, UpdateReferrerRequest } from '../../api';
import type { Handlers } from '../host/contract-host';
import { ContractFailure } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

/** A referrer as the window sees it (only the fields the spec names). */
export function referrerView(r: Referrer): ReferrerView {
  return { id: r.id, name: r.name, email: r.email ?? null, phone: r.phone ?? null, specialty: r.specialty ?? null };
}

// An empty text from the window arrives as null ("clear this field"), which PATCH sends as is.
const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

/** Handlers of the `referrers:*` methods. */
export function createReferrersHandlers(
  ctx: Pick<HandlerContext, 'service'>,
): Pick<Handlers, 'referrers:list' | 'referrers:create' | 'referrers:update' | 'referrers:delete'> {
  return {
    'referrers:list': async () => {
      const client = ctx.service.require();
      const list = await client.referrers.list();
      return { referrers: list.referrers.map(referrerView), sandbox: client.sandbox };
    },
    'referrers:create': async (args) => {
      const client = ctx.service.require();
      const body: CreateReferrerRequest = { name: args.name };
      if (args.email) body.email = args.email;
      if (args.phone) body.phone = args.phone;
      if (args.specialty) body.specialty = args.specialty;
      const created = await client.referrers.create(body);
      return { referrer: referrerView(created), sandbox: client.sandbox };
    },
    'referrers:update': async (args) => {
      const changes = args.changes;
      const body: UpdateReferrerRequest = {};
      if (changes.name !== undefined) body.name = changes.name;
      if (changes.email !== undefined) body.email = orNull(changes.email);
      if (changes.phone !== undefined) body.phone = orNull(changes.phone);
      if (changes.specialty !== undefined) body.specialty = orNull(changes.specialty);
      if (Object.keys(body).length === 0)
        throw new ContractFailure('invalid_args', 'Nothing was changed.', [
          { field: 'changes', message: 'give at least one field' },
        ]);
      const client = ctx.service.require();
      const updated = await client.referrers.update(args.id, body);
      return { referrer: referrerView(updated), sandbox: client.sandbox };
    },
    'referrers:delete': async (args) => {
      const client = ctx.service.require();
      const answer = await client.referrers.remove(args.id);
      return { deleted: true as const, already_deleted: answer.already_deleted === true, sandbox: client.sandbox };
    },
  };
}
