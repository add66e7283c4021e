import type { QueryClient } from '@tanstack/react-query';
import type { NotificationsState } from '../../../../preload/contract';
import { keys, useCall, useContractQuery } from '../../app/queries';

/** The account's notifications: kept fresh by the core's background checks (pushed), not by the window. */
export const useNotifications = (enabled: boolean) =>
  useContractQuery(keys.notifications, 'notifications:list', {}, { staleTime: Infinity, enabled });

/** Each call answers the whole new state, which replaces the cache; `onDone` follows. */
const store = (state: NotificationsState, qc: QueryClient) => qc.setQueryData(keys.notifications, state);

export const useRefreshNotifications = () => useCall({ name: 'notifications:list' }, store);
export const useMarkRead = (onDone: () => void) =>
  useCall({ name: 'notifications:mark-read' }, (state, qc) => {
    store(state, qc);
    onDone();
  });
export const useMarkAllRead = () => useCall({ name: 'notifications:mark-all-read' }, store);
