// The DICOM reader's public face: header reading, folder scanning, study grouping, fingerprints.
export { cleanText, escapeForTerminal, hasUnsafeText, limitText, terminalSafeJson } from './clean-text';
export { scanResultToJson } from './contract-json';
export type { ScanJson, StudyJson, SeriesJson } from './contract-json';
export { parseDicomDate } from './dates';
export { suggestExamType } from './exam-type';
export { fileSetFingerprint, studyFingerprint } from './fingerprint';
export { groupProbes } from './group';
export { parseDicomPrefix } from './header';
export { parsePersonName, prefillName } from './person-name';
export { probeFile as readDicomHeader, probeFileSync as readDicomHeaderSync } from './probe';
export { ScanFolderError, scanFolder } from './scan-folder';
export type { ScanOptions } from './dicom-types';
export { scanPoolStatus, stopScanWorkers } from './scan-pool';
export type * from './dicom-types';
