import type { QueryClient } from '@tanstack/react-query';
import type { InboxItem } from '../../../../preload/contract';
import { keys, useCall } from '../../app/queries';
import { upsertById } from '../../app/merge';

/** A study's fields or series changed: its new state replaces the old one in the inbox. */
const storeItem = (updated: InboxItem, qc: QueryClient): void => {
  qc.setQueryData(keys.inbox, (old: InboxItem[] | undefined) => upsertById(old, [updated]));
};

export const useUpdateStudy = () => useCall({ name: 'inbox:update' }, storeItem);

/** Sends a study to the upload queue: the inbox and the uploads are read again. */
export const useUploadStudy = () =>
  useCall({ name: 'inbox:upload' }, (_r, qc) => {
    void qc.invalidateQueries({ queryKey: keys.inbox });
    void qc.invalidateQueries({ queryKey: keys.uploads });
  });

export const useDismissStudy = () =>
  useCall({ name: 'inbox:dismiss' }, (_r, qc, args) => {
    qc.setQueryData(keys.inbox, (old: InboxItem[] | undefined) => old?.filter((i) => i.id !== args.id));
  });

export const useDismissCopy = () =>
  useCall({ name: 'inbox:copy-dismiss' }, (list, qc) => qc.setQueryData(keys.copies, list));
