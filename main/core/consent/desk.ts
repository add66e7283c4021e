// The front desk's informed consent (API v1 §2.6, §3.2, §4.3): the operator starts a consent, the
// patient reads and signs on the patient display (or on a link sent by e-mail), and the clinic keeps
// the signed PDF once its SHA-256 matches the service's. Electron-free: the patient display is a
// port (a window on the desktop, a page address in browser mode).
import { join } from 'node:path';
import type {
  ConsentEmailView,
  ConsentOverview,
  ConsentStartResult,
  ConsentStatusView,
  ConsentVerification,
  DisplayInfo,
  Language,
  PatientView,
} from '../../../preload/contract';
import type { ApiClient, Consent } from '../api';
import { isApiError } from '../api/http';
import { ContractFailure, maybeDoneFailure } from '../contract-failure';
import { saveSignedCopy } from './copies';
import { hashMatches } from './hash';
import type { ConsentSession } from './session';
import { ConsentSessions, patientView, sessionView } from './session';
import { checkSignatureImage } from './signature-image';
import { checkSignerDocument } from './signer-document';
import { signerText } from './signer-text';
import { ConsentStatusRefresher } from './status-refresher';
import type { PollRegistrar } from '../poll-task';
import type { RefreshPolicy } from './status-refresher';

/** Where the patient sees the consent: a second window (desktop) or a page address (browser mode). */
export type PatientDisplayPort = {
  /** Shows the session on the patient display; answers the patient page's address in browser mode. */
  open(session: { id: string; token: string }): Promise<{ url: string | null }>;
  /** Back to the idle screen (the desktop window stays where it is: leaving it is the operator's). */
  close(): void;
  displays(): DisplayInfo[];
};

/** Browser mode without a window to open: the patient page is opened by address. */
export function pagePatientDisplay(origin: () => string | null): PatientDisplayPort {
  return {
    async open(session) {
      const base = origin();
      return { url: base ? `${base}/?patient=${encodeURIComponent(session.token)}#/patient` : null };
    },
    close: () => undefined,
    displays: () => [],
  };
}

export type ConsentDeskDeps = {
  client: () => ApiClient;
  settings: () => { country_code: string; copies_folder: string | null };
  dataDir: string;
  language: () => Language;
  display: PatientDisplayPort;
  emitStatus: (examId: string, consent: ConsentStatusView) => void;
  /** The agent's one poll scheduler: status looks while a panel watches run on it. */
  poller: PollRegistrar;
  emitSession: (session: ConsentSessionViewOrNull) => void;
  refreshPolicy?: RefreshPolicy;
};
type ConsentSessionViewOrNull = ReturnType<typeof sessionView> | null;

export function statusView(c: Consent | null): ConsentStatusView {
  if (!c)
    return { status: 'none', signing_method: null, signed_at: null, hash: null, country_code: null, locale: null };
  return {
    status: c.status === 'signed' ? 'signed' : 'pending',
    signing_method: c.signing_method ?? null,
    signed_at: c.signed_at ?? null,
    hash: c.hash ?? null,
    country_code: c.country_code ?? null,
    locale: c.locale ?? null,
  };
}

const base64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
const asLanguage = (locale: string | null | undefined, fallback: Language): Language =>
  locale === 'es' || locale === 'en' ? locale : fallback;

export class ConsentDesk {
  readonly sessions = new ConsentSessions();
  readonly refresher: ConsentStatusRefresher;
  /** The blank PDF of the current session, fetched once for the patient's page. */
  private blank: { sessionId: string; pdf: Promise<Uint8Array> } | null = null;
  /** The language each exam's consent was started in (the patient reads it in that language). */
  private readonly startedIn = new Map<string, Language>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: ConsentDeskDeps) {
    this.refresher = new ConsentStatusRefresher({
      poller: deps.poller,
      read: async (examId) => {
        const consent = statusView(await this.deps.client().consent.get(examId));
        return consent.status;
      },
      onSigned: (examId) => {
        // Signed elsewhere (the e-mailed link): the patient display has nothing left to sign.
        if (this.sessions.get()?.exam_id === examId) this.sessions.end();
        // One more read, so the window gets the hash and date with the news.
        void this.deps
          .client()
          .consent.get(examId)
          .then(
            (c) => this.deps.emitStatus(examId, statusView(c)),
            () => undefined,
          );
      },
      ...(deps.refreshPolicy ? { policy: deps.refreshPolicy } : {}),
    });
    this.unsubscribe = this.sessions.subscribe((s) => this.deps.emitSession(s ? sessionView(s) : null));
  }

  /** The exam's name and patient, its consent, and the session if it is about this exam. */
  async overview(examId: string): Promise<ConsentOverview> {
    const client = this.deps.client();
    const [exam, consent] = await Promise.all([client.exams.get(examId), client.consent.get(examId)]);
    const s = this.sessions.get();
    return {
      exam: { id: exam.id, name: exam.name ?? '', patient_name: exam.patient_name ?? null },
      consent: statusView(consent),
      session: s && s.exam_id === examId ? sessionView(s) : null,
    };
  }

  /** Starts or restarts the consent; a signed one is an outcome, not a failure (the service's 409). */
  async start(examId: string, language: Language): Promise<ConsentStartResult> {
    const client = this.deps.client();
    try {
      const consent = await client.consent.init(examId, {
        country_code: this.deps.settings().country_code,
        locale: language,
      });
      this.startedIn.set(examId, language);
      const view = statusView(consent);
      this.deps.emitStatus(examId, view);
      return { outcome: 'started', consent: view };
    } catch (e) {
      if (!isApiError(e, 'conflict', 'upload_incomplete')) throw e;
      const view = statusView(await client.consent.get(examId));
      if (view.status !== 'signed') throw e;
      this.deps.emitStatus(examId, view);
      return { outcome: 'already_signed', consent: view };
    }
  }

  /**
   * Puts this exam's consent on the patient display; any other session ends. Only a pending consent
   * can be signed there: one never started, or already signed, is refused with words instead of a
   * session that could only fail when the patient signs.
   */
  async openDisplay(examId: string, signerName: string): Promise<ConsentSession> {
    const name = signerText(signerName, 'signer_name', 'signer_name_required', true);
    const consent = statusView(await this.deps.client().consent.get(examId));
    if (consent.status === 'none')
      throw new ContractFailure('consent_not_started', 'Start the consent before opening the patient display.');
    if (consent.status === 'signed') {
      this.deps.emitStatus(examId, consent);
      throw new ContractFailure('already_signed', 'This consent is already signed.');
    }
    const language = this.startedIn.get(examId) ?? asLanguage(consent.locale, this.deps.language());
    const country = consent.country_code ?? this.deps.settings().country_code;
    this.blank = null;
    const session = this.sessions.open({ exam_id: examId, language, country_code: country, signer_name: name });
    const { url } = await this.deps.display.open({ id: session.id, token: session.token });
    this.sessions.update(session.id, { patient_url: url });
    return this.sessions.get() ?? session;
  }

  closeDisplay(): void {
    this.blank = null;
    this.sessions.end();
    this.deps.display.close();
  }

  /** E-mails the signing link; the link also goes to the patient display when it shows this exam. */
  async email(examId: string, to: string, patientName: string): Promise<ConsentEmailView> {
    const name = signerText(patientName, 'patient_name', 'signer_name_required');
    const result = await this.deps.client().consent.sendEmail(examId, { to, patient_name: name });
    const s = this.sessions.get();
    if (s && s.exam_id === examId) this.sessions.update(s.id, { sign_url: result.sign_url });
    // Someone is about to sign: look again soon.
    this.refresher.watch(examId);
    return { sign_url: result.sign_url, sent: result.sent !== false };
  }

  /** Downloads the signed PDF, compares its SHA-256 with the service's, and saves a copy. */
  async verify(examId: string): Promise<ConsentVerification> {
    const client = this.deps.client();
    const consent = statusView(await client.consent.get(examId));
    if (consent.status !== 'signed') throw new ContractFailure('not_signed', 'The consent is not signed yet.');
    const pdf = await client.consent.pdf(examId, 'signed');
    const { local, verified } = hashMatches(pdf, consent.hash);
    const folder = this.deps.settings().copies_folder ?? join(this.deps.dataDir, 'consent');
    let savedTo: string | null = null;
    let saveError: string | null = null;
    // Only the document the service vouches for is kept: a copy that does not match proves nothing.
    if (verified) {
      try {
        savedTo = await saveSignedCopy(folder, examId, pdf);
      } catch (e) {
        saveError = (e as NodeJS.ErrnoException).code ?? 'error';
      }
    }
    return {
      verified,
      local_hash: local,
      service_hash: consent.hash,
      saved_to: savedTo,
      save_error: saveError,
      pdf_base64: base64(pdf),
    };
  }

  displays(): DisplayInfo[] {
    return this.deps.display.displays();
  }

  async blankPdf(examId: string): Promise<string> {
    return base64(await this.deps.client().consent.pdf(examId, 'blank'));
  }

  // The patient display's side: every call names its session, and only the current one answers.

  patientSession(sessionId: string | undefined): PatientView {
    if (sessionId === undefined) return patientView(this.sessions.get());
    return patientView(this.sessions.byId(sessionId));
  }

  async patientPdf(sessionId: string): Promise<string> {
    const s = this.requireSession(sessionId);
    if (this.blank?.sessionId !== s.id) {
      const pdf = this.deps.client().consent.pdf(s.exam_id, 'blank');
      this.blank = { sessionId: s.id, pdf };
      pdf.catch(() => {
        if (this.blank?.sessionId === s.id) this.blank = null;
      });
    }
    return base64(await this.blank.pdf);
  }

  patientProgress(sessionId: string, phase: 'reading' | 'signing'): void {
    const s = this.requireSession(sessionId);
    if (s.phase !== phase) this.sessions.update(s.id, { phase });
  }

  async patientSign(
    sessionId: string,
    form: { signer_name: string; document: string; birth_date: string | null; signature_png: string },
  ): Promise<void> {
    const s = this.requireSession(sessionId);
    const name = signerText(form.signer_name, 'signer_name', 'signer_name_required');
    const doc = checkSignerDocument(s.country_code, signerText(form.document, 'document', 'signer_document_required'));
    if (!doc.ok) {
      if (doc.reason === 'missing_hyphen')
        throw new ContractFailure('missing_hyphen', 'Write the RUT with its hyphen and check digit.', [
          { field: 'document', message: 'missing hyphen' },
        ]);
      throw new ContractFailure('invalid_rut', 'This RUT is not valid (check digit).', [
        { field: 'document', message: 'invalid' },
      ]);
    }
    // The signature is evidence: checked here, whatever the window's pad let through.
    const signature = checkSignatureImage(form.signature_png);
    if (!signature.ok) {
      const blank = signature.reason === 'blank' || signature.reason === 'filled';
      throw new ContractFailure(
        blank ? 'signature_blank' : 'signature_invalid',
        `The signature was refused: ${signature.message}.`,
        [{ field: 'signature_png', message: signature.reason }],
      );
    }
    let signed: Consent;
    try {
      signed = await this.deps.client().consent.signInPerson(s.exam_id, {
        signer_name: name,
        signer_rut: doc.value,
        ...(form.birth_date ? { patient_birth_date: form.birth_date } : {}),
        signature_image: form.signature_png.replace(/^data:image\/png;base64,/, ''),
        accepted: true,
      });
    } catch (e) {
      if (isApiError(e, 'conflict', 'upload_incomplete'))
        throw new ContractFailure('already_signed', 'This consent is already signed.');
      signed = await this.signedDespiteLostAnswer(s.exam_id, e);
    }
    this.deps.emitStatus(s.exam_id, statusView(signed));
    this.refresher.unwatch(s.exam_id);
    // Signed: the session and its token end; the patient's page thanks them and goes idle by itself.
    this.blank = null;
    this.sessions.end();
  }

  close(): void {
    this.refresher.close();
    this.unsubscribe();
    this.sessions.end();
  }

  /**
   * The signature was sent but its answer was lost: one look at the consent. Signed → the signature
   * counts (the patient must not sign twice); otherwise `maybe_done`, and the front desk checks.
   */
  private async signedDespiteLostAnswer(examId: string, error: unknown): Promise<Consent> {
    const failure = maybeDoneFailure(error);
    if (!failure) throw error;
    let consent: Consent | null;
    try {
      consent = await this.deps.client().consent.get(examId);
    } catch {
      throw failure;
    }
    if (consent?.status === 'signed') return consent;
    throw failure;
  }

  private requireSession(sessionId: string): ConsentSession {
    const s = this.sessions.byId(sessionId);
    if (!s) throw new ContractFailure('session_ended', 'This consent session has ended.');
    return s;
  }
}
