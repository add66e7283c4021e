// dicom/header: what one DICOM file says, read from a prefix of its bytes with no I/O. Character
// sets, person names, dates, DICOMDIR, surface meshes, the exam type a modality suggests, text
// cleaned once where it enters, and the shapes the reader produces.
export { cleanText, escapeForTerminal, hasUnsafeText, limitText, terminalSafeJson } from './clean-text';
export { parseDicomDate } from './dates';
export { suggestExamType } from './exam-type';
export { parseDicomPrefix } from './header';
export { parsePersonName, prefillName } from './person-name';
export type * from './dicom-types';
