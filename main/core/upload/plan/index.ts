// upload/plan: what a job will send, decided before anything leaves. The plan of a study's files
// (mode, fingerprint, sizes), the service's limits and the fields cut to fit them, the choice
// between files and zip mode, and the files of a study that cannot be sent (cut short, unreadable).
export { AUTO_ZIP_MAX_BYTES, AUTO_ZIP_MAX_MEAN_FILE_BYTES, AUTO_ZIP_MIN_FILES, chooseMode } from './auto-mode';
export { describeCut, fitFieldsToService } from './field-limits';
export {
  MAX_FILES_PER_EXAM,
  MAX_NAME_LENGTH,
  MAX_PATIENT_ID_LENGTH,
  MAX_PATIENT_NAME_LENGTH,
  MAX_ZIP_BYTES,
} from './limits';
export { fingerprintOf, planUpload, settingsHash } from './plan';
export type { JobPlan, PlanFileInput, PlannedFile, RequestedMode } from './plan';
export { describeIncomplete, incompleteFiles, studyIncompleteFiles, withoutIncomplete } from './study-completeness';
export type { IncompleteFile } from './study-completeness';
