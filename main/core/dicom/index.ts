// The DICOM reader's public face: header reading (header/), folder scanning, study grouping and
// fingerprints (scan/).
export {
  cleanText,
  escapeForTerminal,
  hasUnsafeText,
  limitText,
  parseDicomDate,
  parseDicomPrefix,
  parsePersonName,
  prefillName,
  suggestExamType,
  terminalSafeJson,
} from './header';
export type * from './header';
export {
  fileSetFingerprint,
  groupProbes,
  readDicomHeader,
  readDicomHeaderSync,
  ScanFolderError,
  scanFolder,
  scanPoolStatus,
  scanResultToJson,
  stopScanWorkers,
  studyFingerprint,
} from './scan';
export type { ScanJson, SeriesJson, StudyJson } from './scan';
