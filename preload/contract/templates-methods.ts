// Report plate templates (API v1 §2.10, §4.7): system defaults are read-only; the account's own are
// created, changed and deleted. Slot coordinates are fractions of the page (0..1).
import { z } from 'zod';
import { id, method, noArgs } from './method';

export type TemplateSlotView = { x: number; y: number; w: number; h: number; label: string | null };
export type TemplatePageView = { name: string | null; slots: TemplateSlotView[] };
export type TemplateView = {
  id: string;
  name: string;
  description: string | null;
  is_default: boolean;
  pages: TemplatePageView[];
};
export type TemplateList = { templates: TemplateView[]; sandbox: boolean };
/** A created or changed template; with a sandbox key it is a mock the service did not keep. */
export type TemplateSaved = { template: TemplateView; sandbox: boolean };
export type TemplateDeleted = { deleted: true; already_deleted: boolean; sandbox: boolean };

/** Slack for binary rounding, so 0.3 + 0.7 still lies within the page. */
const EDGE = 1e-9;
const unit = z.number().finite().min(0).max(1);

export const slotInput = z
  .object({
    x: unit,
    y: unit,
    w: unit.refine((n) => n > 0, 'must be greater than 0'),
    h: unit.refine((n) => n > 0, 'must be greater than 0'),
    label: z.string().trim().max(100).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.x + s.w > 1 + EDGE)
      ctx.addIssue({ code: 'custom', path: ['w'], message: 'the slot must lie within the page (x + w ≤ 1)' });
    if (s.y + s.h > 1 + EDGE)
      ctx.addIssue({ code: 'custom', path: ['h'], message: 'the slot must lie within the page (y + h ≤ 1)' });
  });

export const pageInput = z
  .object({
    name: z.string().trim().max(100).optional(),
    slots: z.array(slotInput).min(1).max(48),
  })
  .strict();

const templateFields = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().trim().max(2000).optional(),
    pages: z.array(pageInput).min(1).max(20),
  })
  .strict();

export const templatesMethods = {
  'templates:list': method<TemplateList>()(noArgs),
  'templates:get': method<TemplateView>()(z.object({ id }).strict()),
  'templates:create': method<TemplateSaved>()(templateFields),
  /** Changes an own template: only the fields given are sent. */
  'templates:update': method<TemplateSaved>()(templateFields.partial().extend({ id }).strict()),
  'templates:delete': method<TemplateDeleted>()(z.object({ id }).strict()),
} as const;
