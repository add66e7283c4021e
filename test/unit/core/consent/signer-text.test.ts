// Names and documents given for signing are cleaned like every other text that enters; nothing left is refused.
import { describe, expect, it } from 'vitest';
import { ContractFailure } from '@main/core/contract-failure';
import { signerText } from '@main/core/consent/signer-text';

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return e instanceof ContractFailure ? `${e.code} ${e.details?.[0]?.field ?? ''}` : String(e);
  }
  return 'accepted';
};

describe('signerText', () => {
  it('removes control characters and broken UTF-16, keeps the words', () => {
    expect(signerText('  Ana\u0000 Mu\u001bñoz\u009b\n Pérez ', 'signer_name', 'signer_name_required')).toBe(
      'Ana Muñoz  Pérez',
    );
    expect(signerText('12.345.678-5\ud800', 'document', 'signer_document_required')).toBe('12.345.678-5');
  });

  it('refuses what is empty once cleaned, naming the field', () => {
    expect(code(() => signerText('\u0000', 'signer_name', 'signer_name_required'))).toBe(
      'signer_name_required signer_name',
    );
    expect(code(() => signerText('\u0007\u0085\u009f ', 'patient_name', 'signer_name_required'))).toBe(
      'signer_name_required patient_name',
    );
    expect(code(() => signerText('\ud800', 'document', 'signer_document_required'))).toBe(
      'signer_document_required document',
    );
    expect(code(() => signerText('', 'signer_name', 'signer_name_required'))).toBe('signer_name_required signer_name');
  });

  it('optional: an empty value stays allowed, but not one made only of control characters', () => {
    expect(signerText('', 'signer_name', 'signer_name_required', true)).toBe('');
    expect(code(() => signerText('\u0000', 'signer_name', 'signer_name_required', true))).toBe(
      'signer_name_required signer_name',
    );
  });
});
