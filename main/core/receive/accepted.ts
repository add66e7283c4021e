// What the listener accepts: the storage SOP classes of our exam types and the transfer syntaxes
// it stores as they come (it never transcodes), choosing among the offered syntaxes the one the
// service's viewer reads best. Everything else is refused per presentation context, with the
// reason logged.
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

const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const IMPLICIT_LE = '1.2.840.10008.1.2';
const EXPLICIT_BE = '1.2.840.10008.1.2.2';
const DEFLATED_LE = '1.2.840.10008.1.2.1.99';

/** Transfer syntaxes stored as received: every uncompressed one, JPEG lossless, JPEG-LS, JPEG 2000, RLE. */
export const ACCEPTED_TRANSFER_SYNTAXES: ReadonlySet<string> = new Set([
  IMPLICIT_LE,
  EXPLICIT_LE,
  DEFLATED_LE,
  EXPLICIT_BE,
  '1.2.840.10008.1.2.4.57', // JPEG Lossless, Non-Hierarchical (Process 14)
  '1.2.840.10008.1.2.4.70', // JPEG Lossless, first-order prediction
  '1.2.840.10008.1.2.4.80', // JPEG-LS Lossless
  '1.2.840.10008.1.2.4.81', // JPEG-LS Near-Lossless
  '1.2.840.10008.1.2.4.90', // JPEG 2000 (lossless only)
  '1.2.840.10008.1.2.4.91', // JPEG 2000
  '1.2.840.10008.1.2.5', // RLE Lossless
]);

/**
 * How well the service's viewer reads objects stored in a transfer syntax (lower is better), as
 * stored files go to the service unchanged. Explicit VR little endian and the compressed image
 * syntaxes (a sender offers one when the image already is in it) are read by every viewer;
 * implicit VR loses the value representations; big endian is retired and rarely read; a deflated
 * data set is opened by few viewers at all.
 */
export function viewerRank(transferSyntax: string): number {
  switch (transferSyntax) {
    case IMPLICIT_LE:
      return 1;
    case EXPLICIT_BE:
      return 2;
    case DEFLATED_LE:
      return 3;
    default:
      return 0;
  }
}

/**
 * Of the offered syntaxes, the one stored as it comes that the viewer reads best; among equally
 * good ones the sender's order (its preference) decides. Undefined when none is stored as it comes.
 */
export function preferredTransferSyntax(transferSyntaxes: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const ts of transferSyntaxes) {
    if (!ACCEPTED_TRANSFER_SYNTAXES.has(ts)) continue;
    if (best === undefined || viewerRank(ts) < viewerRank(best)) best = ts;
  }
  return best;
}

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
 * The verdict on one proposed presentation context: the offered transfer syntax the viewer reads
 * best (`preferredTransferSyntax`), or why it is refused.
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
  const ts = preferredTransferSyntax(transferSyntaxes);
  if (!ts)
    return {
      accept: false,
      reason: 'transfer_syntax',
      detail: `none of the transfer syntaxes offered (${transferSyntaxes.join(', ')}) is stored without transcoding`,
    };
  return { accept: true, transferSyntax: ts };
}

/**
 * The verdicts on all the contexts of one association. A sender may propose the same class in
 * several contexts, one transfer syntax each (DCMTK's storescu does by default) and then sends on
 * whichever accepted context it prefers: a context is refused when another one of the same class
 * was accepted with a syntax the viewer reads better, so the sender converts to that one (senders
 * fall back to another accepted context of the class).
 */
export function judgeContexts(
  proposed: readonly { id: number; abstractSyntax: string; transferSyntaxes: readonly string[] }[],
  examType: FolderExamType,
): Map<number, ContextVerdict> {
  const verdicts = new Map<number, ContextVerdict>();
  const bestRank = new Map<string, number>();
  for (const pc of proposed) {
    const verdict = judgeContext(pc.abstractSyntax, pc.transferSyntaxes, examType);
    verdicts.set(pc.id, verdict);
    if (verdict.accept) {
      const rank = viewerRank(verdict.transferSyntax);
      bestRank.set(pc.abstractSyntax, Math.min(rank, bestRank.get(pc.abstractSyntax) ?? rank));
    }
  }
  for (const pc of proposed) {
    const verdict = verdicts.get(pc.id);
    if (!verdict?.accept) continue;
    const best = bestRank.get(pc.abstractSyntax) ?? 0;
    if (viewerRank(verdict.transferSyntax) > best)
      verdicts.set(pc.id, {
        accept: false,
        reason: 'transfer_syntax',
        detail: `${verdict.transferSyntax}: the same class is accepted in another context, in a syntax viewers read better`,
      });
  }
  return verdicts;
}
