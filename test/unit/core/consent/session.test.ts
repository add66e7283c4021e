import { describe, expect, it } from 'vitest';
import { ConsentSessions, patientView } from '@main/core/consent/session';

const init = { exam_id: 'exm_1', language: 'es' as const, country_code: 'CL', signer_name: 'María José Muñoz' };

describe('the patient-display session', () => {
  it('knows its own token only, and the token dies when the session ends', () => {
    const sessions = new ConsentSessions();
    const s = sessions.open(init);
    expect(s.token.length).toBeGreaterThanOrEqual(40);
    expect(sessions.byToken(s.token)?.id).toBe(s.id);
    expect(sessions.byToken(`${s.token}x`)).toBeNull();
    expect(sessions.byToken('')).toBeNull();
    expect(sessions.byToken(null)).toBeNull();
    sessions.end();
    expect(sessions.byToken(s.token)).toBeNull();
    expect(sessions.byId(s.id)).toBeNull();
  });

  it('ends the earlier session, and its token, when another starts', () => {
    const sessions = new ConsentSessions();
    const first = sessions.open(init);
    const second = sessions.open({ ...init, exam_id: 'exm_2', signer_name: 'Pedro Pérez' });
    expect(second.token).not.toBe(first.token);
    expect(sessions.byToken(first.token)).toBeNull();
    expect(sessions.byId(first.id)).toBeNull();
    expect(sessions.byToken(second.token)?.exam_id).toBe('exm_2');
  });

  it('shows the patient only what the form needs, and nothing when idle', () => {
    const sessions = new ConsentSessions();
    expect(patientView(sessions.get())).toEqual({ state: 'idle' });
    const s = sessions.open(init);
    const view = patientView(s);
    expect(view).toEqual({
      state: 'active',
      session_id: s.id,
      phase: 'waiting',
      language: 'es',
      country_code: 'CL',
      signer_name: 'María José Muñoz',
      sign_url: null,
    });
    expect(JSON.stringify(view)).not.toContain(s.token);
    expect(JSON.stringify(view)).not.toContain('exm_1');
  });

  it('tells listeners about every change, and null at the end', () => {
    const sessions = new ConsentSessions();
    const seen: (string | null)[] = [];
    sessions.subscribe((s) => seen.push(s ? s.phase : null));
    const s = sessions.open(init);
    sessions.update(s.id, { phase: 'reading' });
    sessions.update('cs_other', { phase: 'signing' });
    sessions.end();
    expect(seen).toEqual(['waiting', 'reading', null]);
  });
});
