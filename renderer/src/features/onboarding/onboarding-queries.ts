import { keys, useCall } from '../../app/queries';

/** Asks the service who a pasted key belongs to (GET /me); nothing is stored yet. */
export const useVerifyKey = () => useCall({ name: 'keys:verify' });

/** Stores a verified key: its account is known already, the settings and the inbox follow the new key. */
export const useSaveKey = () =>
  useCall({ name: 'keys:save' }, (r, qc) => {
    qc.setQueryData(keys.keys, r.status);
    qc.setQueryData(keys.account, r.account);
    void qc.invalidateQueries({ queryKey: keys.settings });
    void qc.invalidateQueries({ queryKey: keys.inbox });
  });
