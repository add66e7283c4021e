// The window's service data. Here: the caches every screen shares and that main keeps current with
// pushed events (settings, keys, account, inbox, uploads…), and the helpers a feature builds its
// own on. Each feature keeps its own reads and changes (keys, stale times, what a change updates or
// reads again) in one `<feature>-queries.ts`; components call those hooks, never useQuery or
// useMutation themselves, so how often the service is asked is decided in one place per feature.
import { hashKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient, QueryKey, UseQueryOptions } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type {
  ContractError,
  KeysStatus,
  MethodArgs,
  MethodName,
  MethodResult,
  RateState,
} from '../../../preload/contract';
import type { Transport } from '../transport';
import { readKeepingNewer, upsertNewer } from './merge';
import { PushClock } from './push-clock';
import { newerRate } from './rate';
import { useTransport } from './transport-context';

/** Cache keys of the service data the window shows. */
export const keys = {
  app: ['app-info'] as const,
  settings: ['settings'] as const,
  keys: ['keys'] as const,
  account: ['account'] as const,
  rate: ['rate'] as const,
  inbox: ['inbox'] as const,
  uploads: ['uploads'] as const,
  notifications: ['notifications'] as const,
  activity: ['activity'] as const,
  reach: ['service-reach'] as const,
  copies: ['inbox-copies'] as const,
};

type Call<M extends MethodName> = { name: M };

/** One per window: pushes and reads of the same caches. */
const clock = new PushClock();

function useCallQuery<M extends MethodName>(key: readonly string[], name: M, args: MethodArgs<M>, enabled = true) {
  const t = useTransport();
  const qc = useQueryClient();
  return useQuery<MethodResult<M>, ContractError>({
    queryKey: key,
    queryFn: () =>
      clock.read(
        key,
        () => t.call(name, args),
        () => qc.getQueryData<MethodResult<M>>(key),
      ),
    enabled,
  });
}

/** How a contract read is cached, beyond its key and its call. */
export type ReadOptions<M extends MethodName> = Omit<
  UseQueryOptions<MethodResult<M>, ContractError>,
  'queryKey' | 'queryFn'
>;

/** A contract call read through the cache under `key` (a feature's own data, not bound to pushed events). */
export function useContractQuery<M extends MethodName>(
  key: QueryKey,
  name: M,
  args: MethodArgs<M>,
  options: ReadOptions<M> = {},
) {
  const t = useTransport();
  return useQuery<MethodResult<M>, ContractError>({ queryKey: key, queryFn: () => t.call(name, args), ...options });
}

/** A function that marks a cache stale and reads it again if it is shown; the same function while the key is the same. */
export function useRefresh(key: QueryKey): () => void {
  const qc = useQueryClient();
  const hash = hashKey(key);
  return useCallback(() => void qc.invalidateQueries({ queryKey: JSON.parse(hash) as QueryKey }), [qc, hash]);
}

export const useAppInfo = () => useCallQuery(keys.app, 'app:info', {});
export const useSettings = () => useCallQuery(keys.settings, 'settings:get', {});
export const useKeysStatus = () => useCallQuery(keys.keys, 'keys:status', {});
export const useAccount = (enabled: boolean) => useCallQuery(keys.account, 'account:get', {}, enabled);
export const useInbox = () => useCallQuery(keys.inbox, 'inbox:list', {});
/** Whether the service can be reached (read once, then kept current by `service:reach`). */
export const useServiceReach = () => useCallQuery(keys.reach, 'service:reach', {});
/** Copies of already uploaded studies found lately (kept current by `inbox:copies`). */
export const useSkippedCopies = () => useCallQuery(keys.copies, 'inbox:copies', {});

/** Upload jobs: a read never undoes a newer pushed state of a job (see preferNewer). */
export function useUploads() {
  const t = useTransport();
  const qc = useQueryClient();
  return useQuery<MethodResult<'uploads:list'>, ContractError>({
    queryKey: keys.uploads,
    queryFn: () =>
      readKeepingNewer(
        () => t.call('uploads:list', {}),
        () => qc.getQueryData<MethodResult<'uploads:list'>>(keys.uploads),
      ),
  });
}

/** The latest rate-limit reading: pushed by `account:rate`, or the one `account:get` answered if newer. */
export function useRate(fromAccount?: RateState): RateState | undefined {
  const pushed = useQuery<RateState | null>({
    queryKey: keys.rate,
    queryFn: () => null,
    staleTime: Infinity,
    enabled: false,
  }).data;
  return newerRate(pushed, fromAccount);
}

/** A contract call as a mutation; `onDone` updates caches from its result. */
export function useCall<M extends MethodName>(
  { name }: Call<M>,
  onDone?: (result: MethodResult<M>, qc: QueryClient, args: MethodArgs<M>) => void,
) {
  const t = useTransport();
  const qc = useQueryClient();
  return useMutation<MethodResult<M>, ContractError, MethodArgs<M>>({
    mutationFn: (args) => t.call(name, args),
    onSuccess: (result, args) => onDone?.(result, qc, args),
  });
}

/** After a change a list is read again; with a sandbox key the service stores nothing, so the list stays as it has it. */
export function refreshUnlessSandbox(qc: QueryClient, key: QueryKey, result: { sandbox: boolean }): void {
  if (!result.sandbox) void qc.invalidateQueries({ queryKey: key });
}

/** Contract calls whose answer is the whole new settings. */
type SettingsCall =
  | 'settings:update'
  | 'settings:dismiss-damage'
  | 'folders:add'
  | 'folders:update'
  | 'folders:remove'
  | 'consent:settings';

/** A change of the settings; its answer replaces the settings' cache at once. */
export const useSettingsCall = <M extends SettingsCall>(name: M) =>
  useCall({ name }, (s, qc) => qc.setQueryData(keys.settings, s));

/** After a key is saved, switched or removed: the new key state, and the account and settings read again. */
export function storeKeysStatus(qc: QueryClient, status: KeysStatus): void {
  qc.setQueryData(keys.keys, status);
  void qc.invalidateQueries({ queryKey: keys.account });
  void qc.invalidateQueries({ queryKey: keys.settings });
}

/** The system's folder picker (desktop only); it answers the chosen path. */
export const usePickFolder = () => useCall({ name: 'folders:pick' });

/** Keeps the caches in step with what main pushes, and refetches everything after a break in the stream. */
export function bindEvents(t: Transport, qc: QueryClient): () => void {
  /** A pushed value replaces its cache, and a read already under way will not undo it (see PushClock). */
  const store =
    (key: readonly string[]) =>
    (value: unknown): void => {
      clock.mark(key);
      qc.setQueryData(key, value);
    };
  const offs = [
    t.on('uploads:state', (changed) =>
      qc.setQueryData(keys.uploads, (old: MethodResult<'uploads:list'> | undefined) => upsertNewer(old, changed)),
    ),
    t.on('inbox:changed', store(keys.inbox)),
    t.on('settings:changed', store(keys.settings)),
    t.on('keys:changed', (k) => {
      store(keys.keys)(k);
      void qc.invalidateQueries({ queryKey: keys.account });
    }),
    t.on('account:rate', (r) => qc.setQueryData(keys.rate, r)),
    t.on('inbox:copies', store(keys.copies)),
    t.on('service:reach', store(keys.reach)),
    // Background refreshes of the core's poll scheduler land straight in the caches.
    t.on('notifications:changed', (n) => qc.setQueryData(keys.notifications, n)),
    t.on('account:changed', (a) => qc.setQueryData(keys.account, a)),
    t.on('activity:changed', () => void qc.invalidateQueries({ queryKey: keys.activity })),
    t.onConnection((state) => {
      if (state === 'open') void qc.invalidateQueries();
    }),
  ];
  return () => offs.forEach((off) => off());
}

/** Binds pushed events to the cache for the life of the component. */
export function useEventBinding(): void {
  const t = useTransport();
  const qc = useQueryClient();
  useEffect(() => bindEvents(t, qc), [t, qc]);
}
