/** Shapes of the informed-consent screens (operator panel and patient display). Plain data only. */
import type { ConsentStatus, Language } from './vocabulary';

/** The consent of one exam as the operator sees it; `none` when it was never started. */
export type ConsentStatusView = {
  status: ConsentStatus;
  /** `in_person` or `email` once signed. */
  signing_method: string | null;
  signed_at: string | null;
  /** SHA-256 (hex) of the signed PDF, as the service states it. */
  hash: string | null;
  country_code: string | null;
  locale: string | null;
};

/** What the panel needs of the exam: its name and the patient's name (the signer prefill). */
export type ConsentExamView = { id: string; name: string; patient_name: string | null };

/** Where the patient is in the flow on their own screen. */
export type PatientPhase = 'waiting' | 'reading' | 'signing' | 'signed';

/** The one patient-display session (there is one patient display per workstation). */
export type ConsentSessionView = {
  exam_id: string;
  phase: PatientPhase;
  /** The e-mail signing link, shown as a QR code on the patient display too. */
  sign_url: string | null;
  /** Browser mode: the address of the patient page, with its one-time token; null on the desktop. */
  patient_url: string | null;
};

export type ConsentOverview = {
  exam: ConsentExamView;
  consent: ConsentStatusView;
  /** The patient-display session when it is about this exam. */
  session: ConsentSessionView | null;
};

/** Starting when the consent is already signed is not a failure: the outcome says so. */
export type ConsentStartResult = { outcome: 'started' | 'already_signed'; consent: ConsentStatusView };

export type ConsentEmailView = {
  sign_url: string;
  /** False with a sandbox key: the service sends no e-mail. */
  sent: boolean;
};

/** The signed PDF as downloaded, its locally computed SHA-256 and where a copy was saved. */
export type ConsentVerification = {
  verified: boolean;
  local_hash: string;
  service_hash: string | null;
  /** Where the copy was saved; null when it could not be, or when the hashes differ (nothing is kept then). */
  saved_to: string | null;
  /** Why a verified copy could not be saved (the folder is not writable…); null otherwise. */
  save_error: string | null;
  pdf_base64: string;
};

/** A screen the patient display can be put on (desktop only). */
export type DisplayInfo = { id: number; label: string; primary: boolean; width: number; height: number };

export type ConsentSettings = {
  /** ISO 3166-1 alpha-2; CL asks for the RUT. */
  country_code: string;
  /** Folder for the signed copies; null: the app's data folder. */
  copies_folder: string | null;
  /** Display for the patient; null: the first one that is not the main one. */
  display_id: number | null;
};

/** What the patient display shows: nothing about anyone until a session starts. */
export type PatientView =
  | { state: 'idle' }
  | {
      state: 'active';
      session_id: string;
      phase: PatientPhase;
      language: Language;
      country_code: string;
      signer_name: string;
      sign_url: string | null;
    };
