import { z } from 'zod';
import { badRequest, limitExceeded } from '../core/http';
import { isoDate } from '../core/validate';

/** API-v1.md §8.2 and the exam rules of CHOICES.md, "Exams". */
export const MAX_NAME_CHARS = 200;
export const MAX_FILES = 5000;
export const MAX_ZIP_BYTES = 1_073_741_824;
export const MAX_EXTRAS = 2;
export const EXAM_TYPES = ['cbct', 'radiografia', 'mesh', 'atm'] as const;
export const RADIOGRAPH_SUBTYPES = [
  'panoramica',
  'cefalometrica',
  'periapical',
  'bitewing',
  'oclusal',
  'carpal',
  'atm',
  'otra',
] as const;
/** Fields PATCH refuses by name (API-v1.md §2.2 "Immutable through PATCH", plus server-owned ones). */
export const IMMUTABLE_FIELDS = [
  'exam_type',
  'share_token',
  'storage',
  'counters',
  'id',
  'status',
  'upload_mode',
  'created_at',
  'updated_at',
  'confirmed_at',
  'files',
  'extra_series',
  'share_url',
  'viewer_url',
  'test_mode',
];

const chars = (s: string): number => [...s].length;

export const examName = z
  .string()
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => chars(s) <= MAX_NAME_CHARS, `at most ${MAX_NAME_CHARS} characters`);

const optText = (max: number) =>
  z
    .string()
    .refine((s) => chars(s) <= max, `at most ${max} characters`)
    .nullable()
    .optional();

/** A relative path inside the exam: no `..` segment, no leading `/`, no drive letter, no backslash, no NUL. */
export const fileName = z
  .string()
  .min(1, 'must not be empty')
  .max(1024, 'at most 1024 characters')
  .superRefine((s, ctx) => {
    const problem = s.includes('\0')
      ? 'must not contain NUL'
      : s.includes('\\')
        ? 'must not contain a backslash'
        : s.startsWith('/')
          ? 'must be a relative path'
          : /^[A-Za-z]:/.test(s)
            ? 'must be a relative path (no drive letter)'
            : s.split('/').includes('..')
              ? 'must not contain a .. segment'
              : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const fileItem = z.object({
  name: fileName,
  size: z.number().int('must be an integer').min(0).max(Number.MAX_SAFE_INTEGER),
});
export type FileItem = z.infer<typeof fileItem>;

export const createExamSchema = z.strictObject({
  name: examName,
  exam_type: z.enum(EXAM_TYPES).optional(),
  patient_name: optText(200),
  patient_id: optText(64),
  birth_date: isoDate.nullable().optional(),
  reason: optText(2000),
  expiration_days: z.number().int().min(1).max(3650).nullable().optional(),
  upload_mode: z.enum(['files', 'zip']).optional(),
  files: z.array(fileItem).nullable().optional(),
  zip_size_bytes: z.number().int('must be an integer').positive().nullable().optional(),
});
export type CreateExamInput = z.infer<typeof createExamSchema>;

export const patchExamSchema = z.strictObject({
  name: examName.optional(),
  patient_name: optText(200),
  patient_id: optText(64),
  birth_date: isoDate.nullable().optional(),
  reason: optText(2000),
  expiration_days: z.number().int().min(1).max(3650).nullable().optional(),
  radiograph_subtype: z.enum(RADIOGRAPH_SUBTYPES).nullable().optional(),
});
export type PatchExamInput = z.infer<typeof patchExamSchema>;

/** Checks a file list: 1..5000 items (more → 400 limit_exceeded), unique names. */
export function checkFileList(files: FileItem[] | null | undefined, field = 'files'): FileItem[] {
  if (!files) throw badRequest(`${field} is required`, [{ field, message: 'required' }]);
  if (files.length === 0)
    throw badRequest(`${field} must list at least one file`, [{ field, message: 'at least 1 item' }]);
  if (files.length > MAX_FILES)
    throw limitExceeded(400, `At most ${MAX_FILES} files per request (got ${files.length})`, { limit: MAX_FILES });
  const seen = new Set<string>();
  files.forEach((f, i) => {
    if (seen.has(f.name))
      throw badRequest(`${field} lists a name twice`, [{ field: `${field}.${i}.name`, message: 'duplicate name' }]);
    seen.add(f.name);
  });
  return files;
}

/** A birth date must not lie in the future of the service clock. */
export function checkBirthDate(value: string | null | undefined, nowMs: number): void {
  if (value && value > new Date(nowMs).toISOString().slice(0, 10)) {
    throw badRequest('birth_date is in the future', [{ field: 'birth_date', message: 'must not be in the future' }]);
  }
}
