// The patient-display session: at most one at a time (one patient display per workstation). It
// carries the one-time token that lets the browser-mode patient page act on this session only;
// ending the session (signed, closed by the operator, replaced by another) kills the token.
import { randomBytes } from 'node:crypto';
import type { ConsentSessionView, Language, PatientPhase, PatientView } from '../../../preload/contract';
import { tokenMatches } from '../tokens';
import { Emitter } from '../emitter';

export type ConsentSession = {
  id: string;
  token: string;
  exam_id: string;
  language: Language;
  country_code: string;
  signer_name: string;
  phase: PatientPhase;
  sign_url: string | null;
  patient_url: string | null;
};

type Listener = (session: ConsentSession | null) => void;

export class ConsentSessions {
  private current: ConsentSession | null = null;
  private readonly changes = new Emitter<[ConsentSession | null]>();

  /** Starts a session (any earlier one ends, its token with it). */
  open(init: { exam_id: string; language: Language; country_code: string; signer_name: string }): ConsentSession {
    this.current = {
      id: `cs_${randomBytes(12).toString('base64url')}`,
      token: randomBytes(32).toString('base64url'),
      ...init,
      phase: 'waiting',
      sign_url: null,
      patient_url: null,
    };
    this.emit();
    return this.current;
  }

  /** Ends the session; its token stops working at once. */
  end(): void {
    if (!this.current) return;
    this.current = null;
    this.emit();
  }

  get(): ConsentSession | null {
    return this.current;
  }

  /** The session with this id, while it is the current one. */
  byId(id: string | undefined): ConsentSession | null {
    return id !== undefined && this.current?.id === id ? this.current : null;
  }

  /** The session whose token this is (constant-time compare), or null. */
  byToken(token: string | null | undefined): ConsentSession | null {
    return this.current && tokenMatches(token, this.current.token) ? this.current : null;
  }

  update(
    id: string,
    change: Partial<Pick<ConsentSession, 'phase' | 'sign_url' | 'patient_url' | 'signer_name'>>,
  ): void {
    if (this.current?.id !== id) return;
    this.current = { ...this.current, ...change };
    this.emit();
  }

  subscribe(listener: Listener): () => void {
    return this.changes.subscribe(listener);
  }

  private emit(): void {
    this.changes.emit(this.current);
  }
}

/** The operator's view of a session (no token: the patient URL carries it in browser mode only). */
export function sessionView(s: ConsentSession): ConsentSessionView {
  return { exam_id: s.exam_id, phase: s.phase, sign_url: s.sign_url, patient_url: s.patient_url };
}

/** The patient's view: nothing but what the consent form needs. */
export function patientView(s: ConsentSession | null): PatientView {
  if (!s) return { state: 'idle' };
  return {
    state: 'active',
    session_id: s.id,
    phase: s.phase,
    language: s.language,
    country_code: s.country_code,
    signer_name: s.signer_name,
    sign_url: s.sign_url,
  };
}
