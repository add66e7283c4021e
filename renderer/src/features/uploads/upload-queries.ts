import type { QueryClient } from '@tanstack/react-query';
import type { UploadJobView } from '../../../../preload/contract';
import { upsertNewer } from '../../app/merge';
import { keys, useCall } from '../../app/queries';

/** A job's new state from a control's answer; never undoes a newer pushed state (see upsertNewer). */
const storeJob = (job: UploadJobView, qc: QueryClient): void => {
  qc.setQueryData(keys.uploads, (old: UploadJobView[] | undefined) => upsertNewer(old, [job]));
};

/** The row's controls share one set of calls so their errors show in one place. */
export function useJobActions() {
  const pause = useCall({ name: 'uploads:pause' }, storeJob);
  const resume = useCall({ name: 'uploads:resume' }, storeJob);
  const cancel = useCall({ name: 'uploads:cancel' }, storeJob);
  const retry = useCall({ name: 'uploads:retry' }, storeJob);
  return { pause, resume, cancel, retry };
}

export const useClearFinished = () =>
  useCall({ name: 'uploads:clear-finished' }, (_r, qc) => void qc.invalidateQueries({ queryKey: keys.uploads }));
