// The read-only global implant catalog (API v1 §2.11, §4.8): brands, models of a brand, free-text
// search, and the look-up by size with near matches within 0.5 mm.
import { z } from 'zod';
import { method, noArgs } from './method';

export type ImplantView = {
  id: string | null;
  brand: string;
  product_line: string;
  /** Millimetres. */
  length: number;
  /** Millimetres. */
  diameter: number;
  platform: string | null;
  connection: string | null;
};
export type ImplantBrandsView = { brands: { brand: string; count: number }[] };
export type ImplantPageView = { implants: ImplantView[]; total: number; limit: number; offset: number };
/** Exact matches (paged) and the near matches within 0.5 mm either way. */
export type ImplantSizeView = ImplantPageView & { near_matches: ImplantView[] };

const page = {
  limit: z.number().int().min(1).max(100).default(25),
  offset: z.number().int().min(0).max(1_000_000).default(0),
};
const mm = z.number().finite().positive().max(100);

export const implantsMethods = {
  'implants:brands': method<ImplantBrandsView>()(noArgs),
  'implants:models': method<ImplantPageView>()(
    z.object({ brand: z.string().trim().min(1).max(200), ...page }).strict(),
  ),
  'implants:search': method<ImplantPageView>()(z.object({ text: z.string().trim().min(1).max(200), ...page }).strict()),
  'implants:size': method<ImplantSizeView>()(
    z
      .object({ length: mm.optional(), diameter: mm.optional(), ...page })
      .strict()
      .refine((q) => q.length !== undefined || q.diameter !== undefined, {
        message: 'give a length, a diameter or both',
        path: ['length'],
      }),
  ),
} as const;
