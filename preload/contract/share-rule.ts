// A share rule as the window sets it: "e-mail every ready exam from this source to these addresses"
// (a watch folder's, or the DICOM listener's). Main stores it as settings `share_rule`.
import { z } from 'zod';
import { SHARE_LOCALES } from './vocabulary';

/** The addresses (1 to 10, each a valid e-mail) and the e-mail's language (null: the service's default). */
export const shareRuleArgs = z
  .object({
    to: z.array(z.email().max(320)).min(1).max(10),
    locale: z.enum(SHARE_LOCALES).nullable(),
  })
  .strict();

/** A source's share rule: the addresses and the e-mail's language (null: the service's default). */
export type ShareRuleView = z.infer<typeof shareRuleArgs>;
