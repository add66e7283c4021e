// What filing a received object needs from its data set: its Study Instance UID (which folder)
// and its SOP Instance UID (checked against the C-STORE request's). Read with dicom-parser up to
// (0020,000D) only, from the first bytes of the Part-10 file in memory: the general header reader
// (`parseDicomPrefix`: every text field decoded, names, dates, exam type) costs several times more
// per object, and the whole study is read that way anyway once it is complete.
import dicomParser from 'dicom-parser';
import type { DataSet } from 'dicom-parser';

const STUDY_INSTANCE_UID = 'x0020000d';
const SOP_INSTANCE_UID = 'x00080018';
/** The first read: the file-meta header and a CT slice's attributes up to (0020,000D) fit in a few KB. */
const FIRST_BYTES = 8 * 1024;

export type ObjectIds = { studyUid: string; sopInstanceUid: string };

const trimUid = (v: string | undefined): string => (v ?? '').replace(/[\0 ]+$/, '');

/** The UIDs from `bytes`, 'short' when the bytes end before (0020,000D), null when they are not DICOM. */
function readFrom(bytes: Uint8Array): ObjectIds | 'short' | null {
  let ds: DataSet;
  try {
    ds = dicomParser.parseDicom(bytes, { untilTag: STUDY_INSTANCE_UID });
  } catch {
    return 'short';
  }
  const study = ds.elements[STUDY_INSTANCE_UID];
  if (!study || study.dataOffset + study.length > bytes.length) return 'short';
  return { studyUid: trimUid(ds.string(STUDY_INSTANCE_UID)), sopInstanceUid: trimUid(ds.string(SOP_INSTANCE_UID)) };
}

/**
 * The UIDs of a Part-10 object held in memory as `chunks` (`bytes` in all), or null when it cannot
 * be read as DICOM. Not for the deflated transfer syntax (its data set must be inflated first).
 */
export function readObjectIds(chunks: readonly Buffer[], bytes: number): ObjectIds | null {
  const first: Buffer[] = [];
  let size = 0;
  for (const c of chunks) {
    if (size >= FIRST_BYTES) break;
    const piece = c.length > FIRST_BYTES - size ? c.subarray(0, FIRST_BYTES - size) : c;
    first.push(piece);
    size += piece.length;
  }
  const ids = readFrom(Buffer.concat(first, size));
  if (ids !== 'short') return ids;
  if (size >= bytes) return null;
  const whole = readFrom(Buffer.concat(chunks, bytes));
  return whole === 'short' ? null : whole;
}
