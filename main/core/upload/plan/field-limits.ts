// Exam fields made acceptable to the service before a plan is made: cleaned of control characters
// and broken Unicode, and cut to the service's lengths with a warning naming the field (a 10 KB
// PatientName used to make the create fail, with no way to correct it from the command line).
import { cleanText, limitText } from '../../dicom';
import { MAX_NAME_LENGTH, MAX_PATIENT_ID_LENGTH, MAX_PATIENT_NAME_LENGTH, MAX_REASON_LENGTH } from './limits';
import type { ExamFields } from '../ports/ports';

const LIMITS = {
  name: MAX_NAME_LENGTH,
  patient_name: MAX_PATIENT_NAME_LENGTH,
  patient_id: MAX_PATIENT_ID_LENGTH,
  reason: MAX_REASON_LENGTH,
} as const;
type TextField = keyof typeof LIMITS;

export type FieldCut = { field: TextField; from: number; to: number };

/** The fields cleaned and cut to fit; `cuts` lists what was shortened (for a warning). */
export function fitFieldsToService(fields: ExamFields): { fields: ExamFields; cuts: FieldCut[] } {
  const cuts: FieldCut[] = [];
  const fit = (field: TextField, value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    const cleaned = cleanText(value).trim();
    const { text, cut } = limitText(cleaned, LIMITS[field]);
    if (cut) cuts.push({ field, from: cleaned.length, to: text.length });
    return text;
  };
  const { name, patient_name, patient_id, reason, ...rest } = fields;
  const out: ExamFields = { ...rest, name: fit('name', name) ?? '' };
  const pn = fit('patient_name', patient_name);
  const pid = fit('patient_id', patient_id);
  const why = fit('reason', reason);
  if (pn) out.patient_name = pn;
  if (pid) out.patient_id = pid;
  if (why) out.reason = why;
  return { fields: out, cuts };
}

const LABEL: Record<TextField, string> = {
  name: 'exam name',
  patient_name: 'patient name',
  patient_id: 'patient ID',
  reason: 'reason',
};

/** "The patient name has 10240 characters; the service keeps 200: it was cut to 200." */
export function describeCut(c: FieldCut): string {
  return `The ${LABEL[c.field]} has ${c.from} characters; the service keeps at most ${LIMITS[c.field]}: it was cut to ${c.to}.`;
}
