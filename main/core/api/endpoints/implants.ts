import { z } from 'zod';
import { apiPath, type CallOptions, type Transport } from '../http/http';
import { optNumber, optString, type PageQuery } from '../http/api-schema';

/** A global catalog entry (§2.11); length and diameter in millimetres. */
export const implantSchema = z.looseObject({
  id: optString,
  brand: z.string(),
  product_line: z.string(),
  length: z.number(),
  diameter: z.number(),
  platform: optString,
  connection: optString,
});
export type Implant = z.infer<typeof implantSchema>;

export const implantBrandsSchema = z.looseObject({
  brands: z.array(z.looseObject({ brand: z.string(), count: z.number() })),
});
export type ImplantBrands = z.infer<typeof implantBrandsSchema>;

export const implantPageSchema = z.looseObject({
  implants: z.array(implantSchema),
  brand: optString,
  total: optNumber,
  limit: optNumber,
  offset: optNumber,
});
export type ImplantPage = z.infer<typeof implantPageSchema>;

/** Size lookup: exact matches plus near matches within 0.5 mm either way. */
export const implantSizeMatchSchema = z.looseObject({
  implants: z.array(implantSchema),
  near_matches: z.array(implantSchema),
  total: optNumber,
});
export type ImplantSizeMatch = z.infer<typeof implantSizeMatchSchema>;

export type ImplantSizeQuery = { length?: number; diameter?: number } & PageQuery;

/** The read-only implant catalog (§4.8): one endpoint, GET /implants, read four ways. */
export function implantsApi(t: Transport) {
  const get = <S extends z.ZodType>(
    query: Record<string, string | number | undefined>,
    schema: S,
    options?: CallOptions,
  ) => t.json({ method: 'GET', path: apiPath('implants'), query, kind: 'read', idempotent: true }, schema, options);
  return {
    /** GET /implants: the brands, with a count each. */
    brands: (options?: CallOptions): Promise<ImplantBrands> => get({}, implantBrandsSchema, options),

    /** GET /implants?brand=: the models of one brand. */
    byBrand: (brand: string, page: PageQuery = {}, options?: CallOptions): Promise<ImplantPage> =>
      get({ brand, ...page }, implantPageSchema, options),

    /** GET /implants?search=: free text over brand and product line. */
    search: (text: string, page: PageQuery = {}, options?: CallOptions): Promise<ImplantPage> =>
      get({ search: text, ...page }, implantPageSchema, options),

    /** GET /implants?length=&diameter=: inverse lookup by size (mm). */
    bySize: (query: ImplantSizeQuery, options?: CallOptions): Promise<ImplantSizeMatch> =>
      get({ ...query }, implantSizeMatchSchema, options),
  };
}
