// Service limits the engine checks before creating an exam (API-v1.md §2.2 and §8.2).

export const MAX_FILES_PER_EXAM = 5000;
export const MAX_ZIP_BYTES = 1_073_741_824;
export const MAX_NAME_LENGTH = 200;
/** The emulator's (and storage's) limit on an object name. */
export const MAX_FILE_NAME_LENGTH = 1024;
/** Longest patient name and patient id the service keeps (the emulator's limits, test/emulator/CHOICES.md). */
export const MAX_PATIENT_NAME_LENGTH = 200;
export const MAX_PATIENT_ID_LENGTH = 64;
export const MAX_REASON_LENGTH = 2000;
