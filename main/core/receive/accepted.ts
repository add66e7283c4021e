// What the listener accepts: the storage SOP classes of our exam types and the transfer syntaxes
// it stores as they come (it never transcodes). Everything else is refused per presentation
// context, with the reason logged.
import type { FolderExamType } from '../../../preload/contract/vocabulary';

export const VERIFICATION_SOP_CLASS = '1.2.840.10008.1.1';

/** Storage SOP classes always accepted, with a name for the log. */
const IMAGE_CLASSES: Record<string, string> = {
  '1.2.840.10008.5.1.4.1.1.2': 'CT Image',
  '1.2.840.10008.5.1.4.1.1.2.1': 'Enhanced CT Image',
  '1.2.840.10008.5.1.4.1.1.1': 'CR Image',
  '1.2.840.10008.5.1.4.1.1.1.1': 'DX Image (presentation)',
  '1.2.840.10008.5.1.4.1.1.1.1.1': 'DX Image (processing)',
  '1.2.840.10008.5.1.4.1.1.1.3': 'Intra-oral X-ray Image (presentation)',
  '1.2.840.10008.5.1.4.1.1.1.3.1': 'Intra-oral X-ray Image (processing)',
  '1.2.840.10008.5.1.4.1.1.7': 'Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.7.1': 'Multi-frame Single Bit Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.7.2': 'Multi-frame Grayscale Byte Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.7.3': 'Multi-frame Grayscale Word Secondary Capture Image',
  '1.2.840.10008.5.1.4.1.1.7.4': 'Multi-frame True Color Secondary Capture Image',
};

/** MR: accepted only when the listener's exam type can be a mesh or TMJ study (or is taken from the DICOM). */
const MR_CLASSES: Record<string, string> = {
  '1.2.840.10008.5.1.4.1.1.4': 'MR Image',
  '1.2.840.10008.5.1.4.1.1.4.1': 'Enhanced MR Image',
};

/** Transfer syntaxes stored as received: every uncompressed one, JPEG lossless, JPEG-LS, JPEG 2000, RLE. */
export const ACCEPTED_TRANSFER_SYNTAXES: ReadonlySet<string> = new Set([
  '1.2.840.10008.1.2', // Implicit VR Little Endian
  '1.2.840.10008.1.2.1', // Explicit VR Little Endian
  '1.2.840.10008.1.2.1.99', // Deflated Explicit VR Little Endian
  '1.2.840.10008.1.2.2', // Explicit VR Big Endian
  '1.2.840.10008.1.2.4.57', // JPEG Lossless, Non-Hierarchical (Process 14)
  '1.2.840.10008.1.2.4.70', // JPEG Lossless, first-order prediction
  '1.2.840.10008.1.2.4.80', // JPEG-LS Lossless
  '1.2.840.10008.1.2.4.81', // JPEG-LS Near-Lossless
  '1.2.840.10008.1.2.4.90', // JPEG 2000 (lossless only)
  '1.2.840.10008.1.2.4.91', // JPEG 2000
  '1.2.840.10008.1.2.5', // RLE Lossless
]);

/** The name of an accepted storage class for this listener's exam type, or null when it is refused. */
export function acceptedStorageClass(sopClassUid: string, examType: FolderExamType): string | null {
  const image = IMAGE_CLASSES[sopClassUid];
  if (image) return image;
  const mr = MR_CLASSES[sopClassUid];
  if (mr && (examType === 'from_dicom' || examType === 'mesh' || examType === 'atm')) return mr;
  return null;
}

export type ContextVerdict =
  | { accept: true; transferSyntax: string }
  | { accept: false; reason: 'abstract_syntax' | 'transfer_syntax'; detail: string };

/**
 * The verdict on one proposed presentation context: the first proposed transfer syntax we store
 * as it comes (the sender's order is its preference), or why it is refused.
 */
export function judgeContext(
  abstractSyntax: string,
  transferSyntaxes: readonly string[],
  examType: FolderExamType,
): ContextVerdict {
  const isEcho = abstractSyntax === VERIFICATION_SOP_CLASS;
  if (!isEcho && !acceptedStorageClass(abstractSyntax, examType))
    return {
      accept: false,
      reason: 'abstract_syntax',
      detail: `SOP class ${abstractSyntax} is not one ScanBridge stores`,
    };
  const ts = transferSyntaxes.find((t) => ACCEPTED_TRANSFER_SYNTAXES.has(t));
  if (!ts)
    return {
      accept: false,
      reason: 'transfer_syntax',
      detail: `none of the transfer syntaxes offered (${transferSyntaxes.join(', ')}) is stored without transcoding`,
    };
  return { accept: true, transferSyntax: ts };
}
