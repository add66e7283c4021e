import type { TFunction } from 'i18next';
import type { CompressSetting, FolderExamType, UploadMode } from '../../../../preload/contract';
import { EXAM_TYPES } from '../../../../preload/contract/vocabulary';

export const examTypeOptions = (t: TFunction) => EXAM_TYPES.map((v) => ({ value: v, label: t(`examType.${v}`) }));

export const folderExamTypeOptions = (t: TFunction) => [
  { value: 'from_dicom' satisfies FolderExamType, label: t('settings.folders.fromDicom') },
  ...examTypeOptions(t),
];

export const folderModeOptions = (t: TFunction) => [
  { value: 'review', label: t('settings.folders.modeReview') },
  { value: 'auto', label: t('settings.folders.modeAuto') },
];

export const compressOptions = (t: TFunction) =>
  (['auto', 'always', 'never'] satisfies CompressSetting[]).map((v) => ({
    value: v,
    label: t(`settings.upload.compress_${v}`),
  }));

export const uploadModeOptions = (t: TFunction) =>
  (['auto', 'files', 'zip'] satisfies UploadMode[]).map((v) => ({ value: v, label: t(`settings.upload.mode_${v}`) }));

const MB = 1024 * 1024;

/** Bytes per second as MB/s for the form (0 stays 0: no limit). */
export const toMegabytes = (bytesPerSecond: number): number => Math.round((bytesPerSecond / MB) * 100) / 100;

/** MB/s from the form as whole bytes per second. */
export const fromMegabytes = (mbPerSecond: number): number => Math.max(0, Math.round(mbPerSecond * MB));

/** A NumberInput value (number, '' or a partly typed string) as a whole number within bounds, or null. */
export function wholeNumber(value: number | string, min: number, max: number): number | null {
  const n = typeof value === 'number' ? value : Number(value.replace(',', '.'));
  if (value === '' || !Number.isFinite(n)) return null;
  return Math.min(max, Math.max(min, Math.round(n)));
}
