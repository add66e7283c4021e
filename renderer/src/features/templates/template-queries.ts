import { useQuery } from '@tanstack/react-query';
import type { ContractError, TemplateList, TemplateView } from '../../../../preload/contract';
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
