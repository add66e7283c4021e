import { z } from 'zod';
import type { CallOptions, Transport } from '../http/http';
import { apiPath, type ApiPath } from '../http/http';
import { deletedSchema, type Deleted, optString } from '../http/api-schema';

/** A picture slot on a report plate; coordinates are fractions of the page (0..1). */
export type TemplateSlot = { x: number; y: number; w: number; h: number; label?: string };
export type TemplatePage = { name?: string; slots: TemplateSlot[] };

const slotSchema = z.looseObject({ x: z.number(), y: z.number(), w: z.number(), h: z.number(), label: optString });
const pageSchema = z.looseObject({ name: optString, slots: z.array(slotSchema) });

/** A report plate template (§2.10). `is_default` ones belong to the system and are read-only. */
export const templateSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: optString,
  is_default: z.boolean().nullish(),
  pages: z.array(pageSchema).nullish(),
  created_at: optString,
  updated_at: optString,
});
export type Template = z.infer<typeof templateSchema>;

export const templateListSchema = z.looseObject({ templates: z.array(templateSchema) });
export type TemplateList = z.infer<typeof templateListSchema>;

export type CreateTemplateRequest = { name: string; description?: string; pages: TemplatePage[] };
export type UpdateTemplateRequest = Partial<CreateTemplateRequest>;

const template = (id: string, ...rest: (string | number)[]): ApiPath => apiPath('templates', id, ...rest);

/** Report template endpoints (§4.7). System defaults answer ValidationError to PATCH/DELETE. */
export function templatesApi(t: Transport) {
  return {
    /** GET /templates: system defaults plus the account's own. */
    list: (options?: CallOptions): Promise<TemplateList> =>
      t.json(
        { method: 'GET', path: apiPath('templates'), kind: 'read', idempotent: true },
        templateListSchema,
        options,
      ),

    /** POST /templates. Never retried. */
    create: (body: CreateTemplateRequest, options?: CallOptions): Promise<Template> =>
      t.json(
        { method: 'POST', path: apiPath('templates'), body, kind: 'write', idempotent: false },
        templateSchema,
        options,
      ),

    /** GET /templates/{id}: a system or own template. */
    get: (id: string, options?: CallOptions): Promise<Template> =>
      t.json({ method: 'GET', path: template(id), kind: 'read', idempotent: true }, templateSchema, options),

    /** PATCH /templates/{id}: an owned template only. */
    update: (id: string, body: UpdateTemplateRequest, options?: CallOptions): Promise<Template> =>
      t.json({ method: 'PATCH', path: template(id), body, kind: 'write', idempotent: true }, templateSchema, options),

    /** DELETE /templates/{id}: an owned template only. */
    remove: (id: string, options?: CallOptions): Promise<Deleted> =>
      t.json({ method: 'DELETE', path: template(id), kind: 'write', idempotent: true }, deletedSchema, options),
  };
}
