// The window's one e-mail rule: every form that takes an address (referrers, share, inbox recipients,
// share rules, consent) accepts exactly what the contract accepts, so nothing typed in the window is
// refused later by the core with a message staff cannot act on.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { methods } from '@preload/contract';
import { isEmailAddress, optionalEmail, problemsOf } from '@renderer/src/components/checked-form';
import { parseEmails } from '@renderer/src/features/exams/emails';
import { checkReferrer, emptyReferrer } from '@renderer/src/features/referrers/referrer-form';
import { toForm, validate } from '@renderer/src/features/inbox/inbox-form';

const ADDRESSES = [
  'ana@clinica.cl',
  'ana.perez+rx@dental.example.com',
  'ANA@CLINICA.CL',
  'o@x.io',
  'ana',
  'ana@',
  'ana@clinica',
  '@clinica.cl',
  'ana@@clinica.cl',
  'ana@clinica..cl',
  '.ana@clinica.cl',
  'ana@clinica.c',
  'ñandú@clínica.cl',
  'ana@-clinica.cl',
  'ana@clinica.cl.',
];

/** What the core says of an address: the contract's schema of `consent:email`, which takes one. */
const contractAccepts = (to: string): boolean =>
  methods['consent:email'].args.safeParse({ exam_id: 'exm_1', to, patient_name: 'Ana' }).success;

describe('the e-mail rule', () => {
  it('is the contract’s: the window accepts exactly the addresses the core accepts', () => {
    const accepted = ADDRESSES.filter(contractAccepts);
    // The list has both kinds, so the comparison below means something.
    expect(accepted.length).toBeGreaterThan(2);
    expect(accepted.length).toBeLessThan(ADDRESSES.length - 2);
    for (const a of ADDRESSES) expect(isEmailAddress(a), a).toBe(contractAccepts(a));
  });

  it('is the one every form uses: share recipients, the referrer, the inbox', () => {
    for (const a of ADDRESSES) {
      const ok = contractAccepts(a);
      expect(parseEmails(a).ok.length === 1, `share: ${a}`).toBe(ok);
      expect(checkReferrer({ ...emptyReferrer, name: 'A', email: a }).email === undefined, `referrer: ${a}`).toBe(ok);
      const inbox = validate({ ...toForm(inboxFields), share_to: a });
      expect(inbox.share_to === undefined, `inbox: ${a}`).toBe(ok);
    }
  });
});

const inboxFields = {
  name: 'CBCT',
  patient_name: '',
  patient_id: '',
  birth_date: null,
  reason: '',
  exam_type: 'cbct' as const,
  expiration_days: null,
  share_to: '',
  share_locale: 'es' as const,
};

describe('problems found by a schema', () => {
  const schema = z.object({
    name: z.string().trim().min(1, 'name_required').max(5, 'name_too_long'),
    email: optionalEmail('email_invalid', 20),
  });

  it('are problem codes by field, the first of each field only', () => {
    expect(problemsOf(schema, { name: '  ', email: 'ana' })).toEqual({ name: 'name_required', email: 'email_invalid' });
    expect(problemsOf(schema, { name: 'Ana', email: '' })).toEqual({});
  });

  it('an optional address may be empty, and counts its length once trimmed', () => {
    expect(problemsOf(schema, { name: 'Ana', email: ' ana@clinica.cl ' })).toEqual({});
    expect(problemsOf(schema, { name: 'Ana', email: 'ana.perez.soto@clinica.cl' })).toEqual({ email: 'email_invalid' });
  });
});
