import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ContractError, ImplantBrandsView, ImplantPageView, ImplantSizeView } from '../../../../preload/contract';
import { useTransport } from '../../app/transport-context';

/** The catalog is global and read-only: an hour-old answer is as good as a new one. */
const STALE = 60 * 60_000;
export const PAGE_SIZE = 25;

export function useImplantBrands() {
  const t = useTransport();
  return useQuery<ImplantBrandsView, ContractError>({
    queryKey: ['implants', 'brands'],
    queryFn: () => t.call('implants:brands', {}),
    staleTime: STALE,
  });
}

export function useImplantModels(brand: string | null, offset: number) {
  const t = useTransport();
  return useQuery<ImplantPageView, ContractError>({
    queryKey: ['implants', 'models', brand, offset],
    queryFn: () => t.call('implants:models', { brand: brand ?? '', limit: PAGE_SIZE, offset }),
    enabled: !!brand,
    staleTime: STALE,
    placeholderData: keepPreviousData,
  });
}

export function useImplantSearch(text: string | null, offset: number) {
  const t = useTransport();
  return useQuery<ImplantPageView, ContractError>({
    queryKey: ['implants', 'search', text, offset],
    queryFn: () => t.call('implants:search', { text: text ?? '', limit: PAGE_SIZE, offset }),
    enabled: !!text,
    staleTime: STALE,
    placeholderData: keepPreviousData,
  });
}

export type SizeQuery = { length?: number; diameter?: number };

export function useImplantSize(size: SizeQuery | null, offset: number) {
  const t = useTransport();
  return useQuery<ImplantSizeView, ContractError>({
    queryKey: ['implants', 'size', size?.length ?? null, size?.diameter ?? null, offset],
    queryFn: () => t.call('implants:size', { ...size, limit: PAGE_SIZE, offset }),
    enabled: !!size,
    staleTime: STALE,
    placeholderData: keepPreviousData,
  });
}
