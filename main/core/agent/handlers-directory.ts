// The account's directory (§4.6): referring dentists, offered as recipients when sharing.
import type { Handlers } from './contract';
import type { HandlerContext } from './handlers';

export function createDirectoryHandlers(ctx: HandlerContext): Pick<Handlers, 'referrers:list'> {
  return {
    'referrers:list': async () => {
      const client = ctx.service.require();
      const list = await client.referrers.list();
      return {
        referrers: list.referrers.map((r) => ({ id: r.id, name: r.name, email: r.email ?? null, phone: r.phone ?? null, specialty: r.specialty ?? null })),
        sandbox: client.sandbox,
      };
    },
  };
}
