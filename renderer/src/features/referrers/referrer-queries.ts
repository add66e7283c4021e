import { useQuery } from '@tanstack/react-query';
import type { ContractError, ReferrerList, ReferrerSaved } from '../../../../preload/contract';
import { refreshUnlessSandbox, useCall } from '../../app/queries';
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

export const useCreateReferrer = (onDone: (saved: ReferrerSaved) => void) =>
  useCall({ name: 'referrers:create' }, (saved, qc) => {
    refreshUnlessSandbox(qc, referrersKey, saved);
    onDone(saved);
  });

export const useUpdateReferrer = (onDone: (saved: ReferrerSaved) => void) =>
  useCall({ name: 'referrers:update' }, (saved, qc) => {
    refreshUnlessSandbox(qc, referrersKey, saved);
    onDone(saved);
  });

export const useDeleteReferrer = (onDone: (sandbox: boolean) => void) =>
  useCall({ name: 'referrers:delete' }, (r, qc) => {
    refreshUnlessSandbox(qc, referrersKey, r);
    onDone(r.sandbox);
  });
