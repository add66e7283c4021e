import { useInfiniteQuery } from '@tanstack/react-query';
import type { ActivityPageView, ContractError } from '../../../../preload/contract';
import { keys } from '../../app/queries';
import { useTransport } from '../../app/transport-context';

/** Entries fetched per page; "Load more" asks for the next one. */
const PAGE = 25;

/** The account's activity log, newest first, one filter (or all) per cache entry, page by page. */
export function useActivityLog(action: string | null) {
  const transport = useTransport();
  return useInfiniteQuery<ActivityPageView, ContractError>({
    queryKey: [...keys.activity, action ?? 'all'],
    queryFn: ({ pageParam }) =>
      transport.call('activity:list', {
        limit: PAGE,
        ...(action ? { action } : {}),
        ...(typeof pageParam === 'string' ? { before: pageParam } : {}),
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: 60_000,
  });
}
