// What the inbox proposes for a detected study: the exam name from the clinic's template, the
// patient fields from the DICOM headers, the exam type from the folder or the modality, and the
// warnings staff should look at before uploading. `studyExamFields` is the one way from a study to
// exam fields: the inbox's proposal and `scanbridge upload` (cli/upload.ts) both start there.
import type { ExamType, Skipped, Study, StudyWarning as DicomWarning } from '../../dicom';
import type { InboxFields, InboxSeries, Language, StudyWarning } from '../../../../preload/contract';
import { MAX_NAME_LENGTH } from '../../upload/plan';
import { t } from '../../i18n';

export { DEFAULT_NAME_TEMPLATE } from '../../settings/settings-schema';

/** An exam type as an exam's name says it (the catalogue's `core.examTypeLabel.*`). */
const typeLabel = (type: ExamType, language: Language): string => t(language, `core.examTypeLabel.${type}`);

export type NameValues = {
  patient: string;
  patient_id: string;
  type: ExamType;
  date: string | null;
  description: string;
  modality: string;
};

/**
 * Fills `{patient}`, `{id}`, `{type}`, `{date}`, `{description}`, `{modality}`; unknown
 * placeholders stay as written. Empty values leave no double spaces or dangling separators.
 */
export function renderExamName(template: string, v: NameValues, language: Language): string {
  const values: Record<string, string> = {
    patient: v.patient,
    id: v.patient_id,
    type: typeLabel(v.type, language),
    date: v.date ?? '',
    description: v.description,
    modality: v.modality,
  };
  const filled = template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  // An empty value must not leave "CBCT  - " behind: collapse spaces, drop separators at the ends.
  const name = filled.replace(/\s+/g, ' ').replace(/^[\s\-–·|,]+|[\s\-–·|,]+$/gu, '');
  const fallback = [typeLabel(v.type, language), v.date ?? ''].join(' ').trim();
  return (name || fallback).slice(0, 200);
}

/** The name of an exam with no template: the study description (or modality) and the study date. */
export function defaultExamName(
  study: Pick<Study, 'description' | 'modality' | 'study_date' | 'suggested_exam_type'>,
): string {
  const what = study.description.trim() || study.modality.trim() || study.suggested_exam_type.toUpperCase();
  const name = [what, study.study_date ?? ''].filter((s) => s !== '').join(' ');
  return name.slice(0, MAX_NAME_LENGTH);
}

/** What a study's headers give its exam, before anything is cut to the service's lengths. */
export type StudyExamFields = Pick<InboxFields, 'name' | 'exam_type' | 'patient_name' | 'patient_id' | 'birth_date'>;

/**
 * The exam fields of a study: the type (the folder's, or the study's own for `from_dicom`), the name
 * (the clinic's template in a language, or with no template `defaultExamName`), and the patient as
 * the headers name them.
 */
export function studyExamFields(
  study: Study,
  folderExamType: ExamType | 'from_dicom',
  naming: { template: string; language: Language } | null,
): StudyExamFields {
  const exam_type = folderExamType === 'from_dicom' ? study.suggested_exam_type : folderExamType;
  const name = naming
    ? renderExamName(
        naming.template,
        {
          patient: study.patient_name,
          patient_id: study.patient_id,
          type: exam_type,
          date: study.study_date,
          description: study.description,
          modality: study.modality,
        },
        naming.language,
      )
    : defaultExamName(study);
  return {
    name,
    exam_type,
    patient_name: study.patient_name,
    patient_id: study.patient_id,
    birth_date: study.birth_date,
  };
}

/** The contract's warnings for a study, from the reader's and the inbox's own checks. */
export function studyWarnings(study: Study, skipped: number, changedSinceUpload: boolean): StudyWarning[] {
  const out = new Set<StudyWarning>();
  const map: Partial<Record<DicomWarning, StudyWarning>> = {
    missing_patient_name: 'missing_patient_name',
    missing_patient_id: 'missing_patient_id',
    future_birth_date: 'future_birth_date',
    birth_after_study: 'birth_after_study',
    multiple_patient_names: 'several_patients',
    multiple_patient_ids: 'several_patients',
    unknown_modality: 'unknown_modality',
    charset_fallback: 'charset_fallback',
  };
  for (const w of study.warnings) {
    const m = map[w];
    if (m) out.add(m);
  }
  if (study.patient_name === '' && study.patient_name_raw === '') out.add('missing_patient_name');
  if (study.birth_date === null) out.add('missing_birth_date');
  if (skipped > 0) out.add('skipped_files');
  if (changedSinceUpload) out.add('already_uploaded_changed');
  return [...out];
}

export type PrefillContext = {
  folderExamType: ExamType | 'from_dicom';
  template: string;
  language: Language;
  defaultExpirationDays: number | null;
};

/** The proposed fields of a study. */
export function prefillFields(study: Study, ctx: PrefillContext): InboxFields {
  const fields = studyExamFields(study, ctx.folderExamType, { template: ctx.template, language: ctx.language });
  return {
    name: fields.name,
    patient_name: fields.patient_name.slice(0, 200),
    patient_id: fields.patient_id.slice(0, 64),
    birth_date: fields.birth_date,
    reason: '',
    exam_type: fields.exam_type,
    expiration_days: ctx.defaultExpirationDays,
    share_to: '',
    share_locale: ctx.language,
  };
}

/** The series list of a study, with the ones staff left out marked. */
export function inboxSeries(study: Study, excluded: ReadonlySet<string>): InboxSeries[] {
  return study.series.map((s) => ({
    series_uid: s.series_uid,
    modality: s.modality,
    description: s.description === '' ? null : s.description,
    files: s.files,
    bytes: s.bytes,
    excluded: excluded.has(s.series_uid),
  }));
}

/** Skipped files that belong to a study's folder (the rest of the export's junk is not its business). */
export function skippedUnder(root: string, skipped: readonly Skipped[]): number {
  return skipped.filter((s) => s.path.startsWith(root)).length;
}
