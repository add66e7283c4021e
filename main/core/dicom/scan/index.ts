// dicom/scan: what an export folder holds. Its files listed (walk.ts), each classified on a pool of
// worker threads (scan-pool.ts, scan-worker.ts; probe.ts reads one file), grouped into studies and
// series (group.ts), fingerprinted, and printed as the JSON of `scanbridge scan --json`.
export { scanResultToJson } from './contract-json';
export type { ScanJson, SeriesJson, StudyJson } from './contract-json';
export { fileSetFingerprint, studyFingerprint } from './fingerprint';
export { groupProbes } from './group';
export { probeFile as readDicomHeader, probeFileSync as readDicomHeaderSync } from './probe';
export { ScanFolderError, scanFolder } from './scan-folder';
export { scanPoolStatus, stopScanWorkers } from './scan-pool';
