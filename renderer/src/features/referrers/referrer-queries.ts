import { useQuery } from '@tanstack/react-query';
import type { ContractError, ReferrerList } from '../../../../preload/contract';
import { useTransport } from '../../app/transport-context';

export const referrersKey = ['referrers'] as const;

/** The directory, read when the screen opens; it changes only through this screen, which updates the cache. */
export function useReferrers() {
  const t = useTransport();
  return useQuery<ReferrerList, ContractError>({
    queryKey: referrersKey,
    queryFn: () => t.call('referrers:list', {}),
    staleTime: 5 * 60_000,
  });
}
