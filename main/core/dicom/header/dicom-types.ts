// Shapes produced by the DICOM reader. The snake_case fields of `Study` are the JSON shape of
// CONTRACTS.md §2 (`scanbridge scan --json`); the rest are extras the upload engine and watcher use.

import type { ExamType } from '../../../../preload/contract/vocabulary';

/** Exam types of API v1 (API-v1.md §2.2), as the contract defines them. */
export type { ExamType };

/** Why a file was left out of a scan. */
export type SkipReason = 'not_dicom' | 'truncated' | 'malformed' | 'unreadable';

/** Header fields read from one DICOM file, text already decoded to Unicode. */
export type DicomHeader = {
  sop_class_uid: string;
  sop_instance_uid: string;
  study_uid: string;
  series_uid: string;
  transfer_syntax: string;
  modality: string;
  /** The full PN value, decoded, padding trimmed (`Family^Given^Middle^Prefix^Suffix[=…]`). */
  patient_name_raw: string;
  /** Prefill form of the name: given, middle, family (CONTRACTS.md §2). */
  patient_name: string;
  patient_id: string;
  /** `YYYY-MM-DD`, or null when absent or not a real date. */
  birth_date: string | null;
  study_date: string | null;
  study_description: string;
  series_description: string;
  series_number: number | null;
  instance_number: number | null;
  /** Specific Character Set (0008,0005) as written, e.g. `ISO_IR 100`; empty for the default repertoire. */
  character_set: string;
  manufacturer: string;
  model: string;
  /**
   * False when the Pixel Data element runs past the end of the file (a partly written file), or
   * when an image's file has no Pixel Data element at all: either way it cannot be shown as it is.
   */
  pixel_data_complete: boolean;
  /** Bytes of the file before the Pixel Data value: how long the header is. */
  header_bytes: number;
  /** Decoding problems, e.g. `charset_fallback` when the declared character set did not fit the bytes. */
  warnings: string[];
};

/** What a DICOMDIR (the media index, not a study) says about the file set. */
export type DicomdirSummary = {
  /** Every directory record (patient, study, series and instance levels). */
  records: number;
  /** Instance-level records: the files the index expects to exist. */
  instances: number;
  /** Instance records per referenced Study Instance UID. */
  studies: { study_uid: string; instances: number }[];
};

export type MeshFormat = 'stl' | 'ply' | 'obj';

/** The verdict on one file's content, without its path and size. */
export type ProbeOutcome =
  | { kind: 'dicom'; header: DicomHeader }
  | { kind: 'dicomdir'; dicomdir: DicomdirSummary }
  | { kind: 'mesh'; format: MeshFormat }
  | { kind: 'skipped'; reason: SkipReason; detail?: string };

/** One file looked at by a scan. */
export type FileProbe = { path: string; size: number; outcome: ProbeOutcome };

/** A file of a study, as the upload engine needs it. */
export type StudyFile = {
  path: string;
  /** Path relative to the study's root folder, with `/` separators. */
  relative_path: string;
  size: number;
  sop_instance_uid: string;
  instance_number: number | null;
  /** False when the file looks partly written (Pixel Data runs past its end) or an image has no Pixel Data. */
  complete: boolean;
};

export type Series = {
  series_uid: string;
  modality: string;
  files: number;
  /** Extras beyond CONTRACTS.md §2. */
  description: string;
  number: number | null;
  bytes: number;
  file_list: StudyFile[];
};

/** Study-level warnings the inbox shows so staff check the prefill before uploading. */
export type StudyWarning =
  | 'missing_patient_id'
  | 'missing_patient_name'
  | 'future_birth_date'
  | 'birth_after_study'
  | 'multiple_patient_names'
  | 'multiple_patient_ids'
  | 'unknown_modality'
  | 'duplicate_instances'
  | 'charset_fallback'
  | 'incomplete_files'
  | 'fewer_files_than_dicomdir';

export type Study = {
  study_uid: string;
  patient_name: string;
  patient_name_raw: string;
  patient_id: string;
  birth_date: string | null;
  study_date: string | null;
  modality: string;
  description: string;
  suggested_exam_type: ExamType;
  series: Series[];
  files: number;
  bytes: number;
  /** Extras beyond CONTRACTS.md §2. */
  root: string;
  character_set: string;
  manufacturer: string;
  model: string;
  /** Instance count a DICOMDIR in the scanned folder gives for this study, when it lists it. */
  expected_files?: number;
  warnings: StudyWarning[];
};

export type Skipped = { path: string; reason: SkipReason; size?: number };

export type ScanResult = {
  /** Absolute path of the folder scanned. */
  root: string;
  studies: Study[];
  skipped: Skipped[];
  /** Directory records of the DICOMDIR files found (absent when there is none). */
  dicomdir_records?: number;
  /** Instance records of those DICOMDIRs: how many image files the media index expects. */
  dicomdir_instances?: number;
  /** The DICOMDIR files themselves (absent when there is none); `scan --json` lists them in `skipped`. */
  dicomdir_files?: string[];
};

export type ScanProgress = { done: number; total: number };

/** How a folder is scanned (scanFolder) and its files classified (probeFiles). */
export type ScanOptions = {
  signal?: AbortSignal;
  /** Called as files are classified (at most once per batch of files). */
  onProgress?: (progress: ScanProgress) => void;
  /** Use worker threads for large folders (default true). */
  workers?: boolean;
};
