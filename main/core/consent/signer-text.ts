// Names and documents given for signing (the signer's name and document, the patient's name for an
// e-mailed link) are cleaned like every other text that enters (dicom/clean-text.ts: control
// characters and broken UTF-16 removed, spaces trimmed) before they reach the service or the PDF.
// What is left empty after cleaning — a name of NUL characters, say — is refused.
import { cleanText } from '../dicom';
import { ContractFailure } from '../contract-failure';

export type SignerTextCode = 'signer_name_required' | 'signer_document_required';

/**
 * `value` cleaned. Empty after cleaning is refused with `code`, naming `field`; with `optional`, a
 * value that was empty to begin with is accepted (a name the patient fills in later).
 */
export function signerText(value: string, field: string, code: SignerTextCode, optional = false): string {
  const cleaned = cleanText(value).trim();
  if (cleaned === '' && !(optional && value.trim() === '')) {
    throw new ContractFailure(code, `The ${field} is empty once control characters are removed.`, [
      { field, message: 'empty after cleaning' },
    ]);
  }
  return cleaned;
}
