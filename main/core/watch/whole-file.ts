// Does a DICOM file read whole? The header reader already compares a native Pixel Data length
// with the file size; compressed (encapsulated) Pixel Data has no length, so a file cut inside
// its fragments still parses. Its end is the Sequence Delimitation Item, so checking the last
// bytes of the file is enough — and costs two small reads.
import { open } from 'node:fs/promises';

const PREFIX_BYTES = 4096;
const TAIL_SEARCH_BYTES = 64 * 1024;
// Transfer syntaxes whose Pixel Data carries an explicit length (checked by the header reader),
// and deflate, whose whole data set is compressed and cannot be checked cheaply.
const NOT_ENCAPSULATED = new Set([
  '1.2.840.10008.1.2',
  '1.2.840.10008.1.2.1',
  '1.2.840.10008.1.2.2',
  '1.2.840.10008.1.2.1.99',
]);
const LONG_LENGTH_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'SV', 'UC', 'UN', 'UR', 'UT', 'UV']);
// (FFFE,E0DD) with length 0, little endian.
const SEQUENCE_DELIMITER = Buffer.from([0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0]);
// (FFFC,FFFC) Data Set Trailing Padding, the one element allowed after Pixel Data in practice.
const TRAILING_PADDING_TAG = Buffer.from([0xfc, 0xff, 0xfc, 0xff]);

/** The Transfer Syntax UID from a part-10 file's meta group, or '' when there is none. */
export function metaTransferSyntax(b: Uint8Array): string {
  if (b.length < 132 || b[128] !== 0x44 || b[129] !== 0x49 || b[130] !== 0x43 || b[131] !== 0x4d) return '';
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = 132;
  while (at + 8 <= b.length) {
    const group = view.getUint16(at, true);
    const element = view.getUint16(at + 2, true);
    if (group !== 0x0002) return '';
    const vr = String.fromCharCode(b[at + 4] as number, b[at + 5] as number);
    let length: number;
    let valueAt: number;
    if (LONG_LENGTH_VRS.has(vr)) {
      if (at + 12 > b.length) return '';
      length = view.getUint32(at + 8, true);
      valueAt = at + 12;
    } else {
      length = view.getUint16(at + 6, true);
      valueAt = at + 8;
    }
    if (element === 0x0010) {
      if (valueAt + length > b.length) return '';
      return Buffer.from(b.subarray(valueAt, valueAt + length))
        .toString('latin1')
        .replace(/[\0 ]+$/, '');
    }
    at = valueAt + length;
  }
  return '';
}

/** True when an encapsulated Pixel Data ends properly within `tail` (the last bytes of the file). */
export function tailEndsEncapsulation(tail: Buffer): boolean {
  if (tail.length >= 8 && tail.subarray(tail.length - 8).equals(SEQUENCE_DELIMITER)) return true;
  // A delimiter followed by trailing padding also closes the data set.
  const marker = Buffer.concat([SEQUENCE_DELIMITER, TRAILING_PADDING_TAG]);
  return tail.lastIndexOf(marker) >= 0;
}

/**
 * False when the file is a DICOM file with encapsulated Pixel Data whose closing delimiter is not
 * there yet (a compressed image still being written). True otherwise, including for files whose
 * completeness the header reader judges itself. A file that cannot be read counts as not whole.
 */
export async function encapsulationComplete(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return false;
  }
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(Math.min(size, PREFIX_BYTES));
    await handle.read(head, 0, head.length, 0);
    const ts = metaTransferSyntax(head);
    if (ts === '' || NOT_ENCAPSULATED.has(ts)) return true;
    const tailLength = Math.min(size, TAIL_SEARCH_BYTES);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    return tailEndsEncapsulation(tail);
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}
