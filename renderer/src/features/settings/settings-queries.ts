// Settings' own service data: the proxy, the extra CA file, the DICOM listener and the patient's
// displays. The settings themselves, the keys and the folder picker are the window's shared caches
// (app/queries.ts): other screens show them too.
import type { MethodArgs, MethodResult } from '../../../../preload/contract';
import { keys, storeKeysStatus, useCall, useContractQuery } from '../../app/queries';

export const settingsKeys = {
  proxy: ['network-proxy'] as const,
  caFile: ['network-ca-file'] as const,
  receive: ['receive'] as const,
  consentDisplays: ['consent-displays'] as const,
};

export const useProxy = () => useContractQuery(settingsKeys.proxy, 'network:proxy', {});

/** Saves (or, with no address, removes) the proxy; the account is read again through it. */
export const useSaveProxy = (
  onDone: (result: MethodResult<'network:proxy-save'>, args: MethodArgs<'network:proxy-save'>) => void,
) =>
  useCall({ name: 'network:proxy-save' }, (result, qc, args) => {
    qc.setQueryData(settingsKeys.proxy, result);
    onDone(result, args);
    void qc.invalidateQueries({ queryKey: keys.account });
  });

export const useCaFile = () => useContractQuery(settingsKeys.caFile, 'network:ca-file', {});

export const useSaveCaFile = (
  onDone: (result: MethodResult<'network:ca-file-save'>, args: MethodArgs<'network:ca-file-save'>) => void,
) =>
  useCall({ name: 'network:ca-file-save' }, (result, qc, args) => {
    qc.setQueryData(settingsKeys.caFile, result);
    onDone(result, args);
  });

/** The listener's settings and state; the state changes on its own (associations, a port taken), so it is read every few seconds. */
export const useReceive = () => useContractQuery(settingsKeys.receive, 'receive:get', {}, { refetchInterval: 3000 });

export const useUpdateReceive = () =>
  useCall({ name: 'receive:update' }, (v, qc) => qc.setQueryData(settingsKeys.receive, v));

/** The screens the patient's display can open on. */
export const useConsentDisplays = () =>
  useContractQuery(settingsKeys.consentDisplays, 'consent:displays', {}, { staleTime: 60_000 });

export const useConnectionCheck = () => useCall({ name: 'network:check' });

export const useActivateKey = () => useCall({ name: 'keys:activate' }, (s, qc) => storeKeysStatus(qc, s));
export const useRemoveKey = () => useCall({ name: 'keys:remove' }, (s, qc) => storeKeysStatus(qc, s));

export const useOpenLogFolder = () => useCall({ name: 'support:open-log-folder' });
export const useSupportBundle = (onDone: (bundle: MethodResult<'support:bundle'>) => void) =>
  useCall({ name: 'support:bundle' }, (r) => onDone(r));
