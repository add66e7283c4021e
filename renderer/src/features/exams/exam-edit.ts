// The edit form's values and the PATCH they make: only the fields that changed.
import type { ExamEdit, ExamView, RadiographSubtype } from '../../../../preload/contract';
import { z } from 'zod';
import { RADIOGRAPH_SUBTYPES } from '../../../../preload/contract/vocabulary';

export type Form = {
  name: string;
  patient_name: string;
  patient_id: string;
  birth_date: string;
  reason: string;
  expiration_days: number | '';
  radiograph_subtype: string;
};
export type Field = keyof Form;

/** What the form checks before sending; each message is a problem code (`exams.edit.<code>`). The service checks the rest. */
export const editSchema = z.object({
  name: z.string().trim().min(1, 'required'),
  birth_date: z.string().refine((s) => s === '' || /^\d{4}-\d{2}-\d{2}$/.test(s), 'badDate'),
  expiration_days: z.custom<number | ''>(
    (v) => v === '' || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 3650),
    'badDays',
  ),
});

export function formOf(e: ExamView): Form {
  return {
    name: e.name,
    patient_name: e.patient_name ?? '',
    patient_id: e.patient_id ?? '',
    birth_date: e.birth_date ?? '',
    reason: e.reason ?? '',
    expiration_days: e.expiration_days ?? '',
    radiograph_subtype: e.radiograph_subtype ?? '',
  };
}

/** Only the fields that differ from the stored exam, as PATCH takes them. */
export function changedFields(exam: ExamView, form: Form): ExamEdit {
  const before = formOf(exam);
  const out: ExamEdit = {};
  if (form.name.trim() !== before.name) out.name = form.name.trim();
  if (form.patient_name !== before.patient_name) out.patient_name = form.patient_name;
  if (form.patient_id !== before.patient_id) out.patient_id = form.patient_id;
  if (form.birth_date !== before.birth_date && form.birth_date !== '') out.birth_date = form.birth_date;
  if (form.reason !== before.reason) out.reason = form.reason;
  if (form.expiration_days !== before.expiration_days)
    out.expiration_days = form.expiration_days === '' ? null : form.expiration_days;
  const subtypeChanged = form.radiograph_subtype !== before.radiograph_subtype;
  if (
    exam.exam_type === 'radiografia' &&
    subtypeChanged &&
    (RADIOGRAPH_SUBTYPES as readonly string[]).includes(form.radiograph_subtype)
  ) {
    out.radiograph_subtype = form.radiograph_subtype as RadiographSubtype;
  }
  return out;
}
