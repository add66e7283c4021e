// The DICOM listener's public face (a storage SCP beside the watch folders).
export {
  ACCEPTED_TRANSFER_SYNTAXES,
  acceptedStorageClass,
  judgeContext,
  judgeContexts,
  preferredTransferSyntax,
  VERIFICATION_SOP_CLASS,
} from './accepted';
export { callerAllowed, ListenError } from './listener';
export type { ListenerConfig } from './listener';
export { IMPLEMENTATION_CLASS_UID, part10Header } from './part10';
export { ReceiveService, studyDirName } from './receive-service';
export type { ReceiveConfig, ReceivedFrom, ReceivedStudy } from './receive-service';
