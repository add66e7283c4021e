// Report plate templates on the service (API v1 §4.7). System defaults are read-only: the service
// answers 400 to a change, and the window never offers one.
import type { TemplatePageView, TemplateView } from '../../../../preload/contract';
import type { CreateTemplateRequest, Template, TemplatePage, UpdateTemplateRequest } from '../../api';
import type { Handlers } from '../host/contract-host';
import { ContractFailure } from '../host/contract-host';
import type { HandlerContext } from './handler-context';
import { definedFields } from '../../defined';

type PageInput = {
  name?: string | undefined;
  slots: { x: number; y: number; w: number; h: number; label?: string | undefined }[];
};

/** A template as the window sees it (only the fields the spec names). */
export function templateView(t: Template): TemplateView {
  const pages: TemplatePageView[] = (t.pages ?? []).map((p) => ({
    name: p.name ?? null,
    slots: p.slots.map((s) => ({ x: s.x, y: s.y, w: s.w, h: s.h, label: s.label ?? null })),
  }));
  return { id: t.id, name: t.name, description: t.description ?? null, is_default: t.is_default === true, pages };
}

/** Pages as the service takes them: empty names and labels left out rather than sent blank. */
function pagesBody(pages: PageInput[]): TemplatePage[] {
  return pages.map((p) => ({
    ...(p.name ? { name: p.name } : {}),
    slots: p.slots.map((s) => ({ x: s.x, y: s.y, w: s.w, h: s.h, ...(s.label ? { label: s.label } : {}) })),
  }));
}

/** Handlers of the `templates:*` methods. */
export function createTemplatesHandlers(
  ctx: Pick<HandlerContext, 'service'>,
): Pick<Handlers, 'templates:list' | 'templates:get' | 'templates:create' | 'templates:update' | 'templates:delete'> {
  return {
    'templates:list': async () => {
      const client = ctx.service.require();
      const list = await client.templates.list();
      return { templates: list.templates.map(templateView), sandbox: client.sandbox };
    },
    'templates:get': async (args) => templateView(await ctx.service.require().templates.get(args.id)),
    'templates:create': async (args) => {
      const client = ctx.service.require();
      const body: CreateTemplateRequest = { name: args.name, pages: pagesBody(args.pages) };
      if (args.description) body.description = args.description;
      return { template: templateView(await client.templates.create(body)), sandbox: client.sandbox };
    },
    'templates:update': async (args) => {
      const body: UpdateTemplateRequest = definedFields(args, ['name', 'description']);
      if (args.pages !== undefined) body.pages = pagesBody(args.pages);
      if (Object.keys(body).length === 0)
        throw new ContractFailure('invalid_args', 'Nothing was changed.', [
          { field: 'name', message: 'give at least one field' },
        ]);
      const client = ctx.service.require();
      return { template: templateView(await client.templates.update(args.id, body)), sandbox: client.sandbox };
    },
    'templates:delete': async (args) => {
      const client = ctx.service.require();
      const answer = await client.templates.remove(args.id);
      return { deleted: true as const, already_deleted: answer.already_deleted === true, sandbox: client.sandbox };
    },
  };
}
