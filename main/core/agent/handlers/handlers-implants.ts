// The read-only implant catalog (API v1 §4.8), paged. Sandbox keys see the same catalog as live ones.
import type { ImplantPageView, ImplantView } from '../../../../preload/contract';
import type { Implant, ImplantPage } from '../../api';
import type { Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

/** A catalog entry as the window sees it. */
export function implantView(e: Implant): ImplantView {
  return {
    id: e.id ?? null,
    brand: e.brand,
    product_line: e.product_line,
    length: e.length,
    diameter: e.diameter,
    platform: e.platform ?? null,
    connection: e.connection ?? null,
  };
}

// The spec leaves `total` open: without it the page cannot tell how many there are beyond what it holds.
function pageView(p: ImplantPage, limit: number, offset: number): ImplantPageView {
  const implants = p.implants.map(implantView);
  return { implants, total: p.total ?? offset + implants.length, limit: p.limit ?? limit, offset: p.offset ?? offset };
}

/** Handlers of the `implants:*` methods. */
export function createImplantsHandlers(
  ctx: Pick<HandlerContext, 'service'>,
): Pick<Handlers, 'implants:brands' | 'implants:models' | 'implants:search' | 'implants:size'> {
  return {
    'implants:brands': async () => {
      const answer = await ctx.service.require().implants.brands();
      return { brands: answer.brands.map((b) => ({ brand: b.brand, count: b.count })) };
    },
    'implants:models': async (args) =>
      pageView(
        await ctx.service.require().implants.byBrand(args.brand, { limit: args.limit, offset: args.offset }),
        args.limit,
        args.offset,
      ),
    'implants:search': async (args) =>
      pageView(
        await ctx.service.require().implants.search(args.text, { limit: args.limit, offset: args.offset }),
        args.limit,
        args.offset,
      ),
    'implants:size': async (args) => {
      const answer = await ctx.service.require().implants.bySize({
        ...(args.length !== undefined ? { length: args.length } : {}),
        ...(args.diameter !== undefined ? { diameter: args.diameter } : {}),
        limit: args.limit,
        offset: args.offset,
      });
      const exact = answer.implants.map(implantView);
      return {
        implants: exact,
        near_matches: answer.near_matches.map(implantView),
        total: answer.total ?? args.offset + exact.length,
        limit: args.limit,
        offset: args.offset,
      };
    },
  };
}
