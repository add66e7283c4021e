// The DICOM reader's public face: header reading, folder scanning, study grouping, fingerprints.
export { cleanText, escapeForTerminal, hasUnsafeText, limitText, terminalSafeJson } from './header/clean-text';
export { scanResultToJson } from './scan/contract-json';
export type { ScanJson, StudyJson, SeriesJson } from './scan/contract-json';
export { parseDicomDate } from './header/dates';
export { suggestExamType } from './header/exam-type';
export { fileSetFingerprint, studyFingerprint } from './scan/fingerprint';
export { groupProbes } from './scan/group';
export { parseDicomPrefix } from './header/header';
export { parsePersonName, prefillName } from './header/person-name';
export { probeFile as readDicomHeader, probeFileSync as readDicomHeaderSync } from './scan/probe';
export { ScanFolderError, scanFolder } from './scan/scan-folder';
export type { ScanOptions } from './scan/scan-folder';
export { scanPoolStatus, stopScanWorkers } from './scan/scan-pool';
export type * from './header/dicom-types';
