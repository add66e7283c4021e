// upload/ports: what the upload engine is given and how it fails. The ExamsPort (the service's
// exam endpoints as the engine needs them), its adapter over the API client, and UploadError.
// The lowest room of upload: it imports no other room.
export { examsPortFromClient } from './api-port';
export { ExamsPortError } from './ports';
export type { CreateExamInput, CreatedExam, ExamFields, ExamSummary, ExamsPort, ExamType, UploadMode } from './ports';
export { UploadError } from './upload-errors';
export type { UploadErrorCode } from './upload-errors';
