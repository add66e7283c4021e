import { useQuery } from '@tanstack/react-query';
import type {
  ContractError,
  MethodArgs,
  TemplateList,
  TemplateSaved,
  TemplateView,
} from '../../../../preload/contract';
import { refreshUnlessSandbox, useCall } from '../../app/queries';
import { useTransport } from '../../app/transport-context';

export const templatesKey = ['templates'] as const;
export const templateKey = (id: string) => ['templates', id] as const;

/** Templates change only through this screen (which refreshes them), so they stay fresh for a while. */
const STALE = 5 * 60_000;

export function useTemplates() {
  const t = useTransport();
  return useQuery<TemplateList, ContractError>({
    queryKey: templatesKey,
    queryFn: () => t.call('templates:list', {}),
    staleTime: STALE,
  });
}

/** One template, read from the list when it is already there (no extra call). */
export function useTemplate(id: string | undefined) {
  const t = useTransport();
  const list = useTemplates();
  const cached = id ? list.data?.templates.find((x) => x.id === id) : undefined;
  const one = useQuery<TemplateView, ContractError>({
    queryKey: templateKey(id ?? ''),
    queryFn: () => t.call('templates:get', { id: id ?? '' }),
    enabled: !!id && !cached && !list.isPending,
    staleTime: STALE,
  });
  return {
    data: cached ?? one.data,
    isPending: !!id && !cached && (list.isPending || one.isPending),
    error: cached ? null : one.error,
  };
}

export const useCreateTemplate = (onDone: (saved: TemplateSaved) => void) =>
  useCall({ name: 'templates:create' }, (saved, qc) => {
    refreshUnlessSandbox(qc, templatesKey, saved);
    onDone(saved);
  });

export const useUpdateTemplate = (onDone: (saved: TemplateSaved, args: MethodArgs<'templates:update'>) => void) =>
  useCall({ name: 'templates:update' }, (saved, qc, args) => {
    if (!saved.sandbox) {
      qc.setQueryData(templateKey(saved.template.id), saved.template);
      void qc.invalidateQueries({ queryKey: templatesKey });
    }
    onDone(saved, args);
  });

export const useDeleteTemplate = (onDone: (sandbox: boolean) => void) =>
  useCall({ name: 'templates:delete' }, (r, qc) => {
    refreshUnlessSandbox(qc, templatesKey, r);
    onDone(r.sandbox);
  });
