// A small DICOM Part-10 writer for the demo's sample exports: explicit VR little endian, one
// uncompressed 16-bit monochrome frame, text in ISO_IR 100 (Latin-1) or ISO_IR 192 (UTF-8) as the
// file declares. Just what a dental scanner's export carries; it needs no system package, so the
// demo runs on a machine with only Node.
import { randomUUID } from 'node:crypto';

export type DicomCharset = 'ISO_IR 100' | 'ISO_IR 192';

export type DicomImage = {
  sopClassUid: string;
  sopInstanceUid: string;
  studyUid: string;
  seriesUid: string;
  modality: string;
  charset: DicomCharset;
  /** PN value, `Family^Given^Middle`, Unicode (encoded per `charset`). */
  patientName: string;
  patientId: string;
  /** DA values, `YYYYMMDD`. */
  birthDate: string;
  sex: 'F' | 'M' | 'O';
  studyDate: string;
  /** TM value, `HHMMSS`. */
  studyTime: string;
  accessionNumber: string;
  studyDescription: string;
  seriesDescription: string;
  seriesNumber: number;
  instanceNumber: number;
  manufacturer: string;
  model: string;
  imageType: string[];
  rows: number;
  cols: number;
  /** Millimetres between pixel centres (row, column). */
  pixelSpacing: [number, number];
  /** Slices of a volume: position of the first pixel and the slice thickness, in mm. */
  slice?: { position: [number, number, number]; thickness: number };
  window: { center: number; width: number };
  /** rows × cols values, 12 bits used. */
  pixels: Uint16Array;
};

/** DICOM UIDs used by the demo. */
export const UIDS = {
  explicitVrLittleEndian: '1.2.840.10008.1.2.1',
  ctImage: '1.2.840.10008.5.1.4.1.1.2',
  digitalXRayForPresentation: '1.2.840.10008.5.1.4.1.1.1.1',
  digitalIntraOralXRayForPresentation: '1.2.840.10008.5.1.4.1.1.1.3',
  /** The demo writer's implementation class (a 2.25 UUID-derived UID). */
  implementationClass: '2.25.163474271239860358384227455546553137717',
} as const;

/** A fresh UID in the 2.25 (UUID-derived) root. */
export function newUid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replace(/-/g, '')}`).toString()}`;
}

// Value representations whose length field is 4 bytes after 2 reserved bytes (PS3.5 7.1.2).
const LONG_VRS = new Set(['OB', 'OW', 'OF', 'OD', 'OL', 'SQ', 'UC', 'UN', 'UR', 'UT']);

type Element = { tag: number; vr: string; value: Buffer };

function header(tag: number, vr: string, length: number): Buffer {
  const long = LONG_VRS.has(vr);
  const b = Buffer.alloc(long ? 12 : 8);
  b.writeUInt16LE(tag >>> 16, 0);
  b.writeUInt16LE(tag & 0xffff, 2);
  b.write(vr, 4, 'latin1');
  if (long) b.writeUInt32LE(length, 8);
  else b.writeUInt16LE(length, 6);
  return b;
}

function encodeElements(elements: Element[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of [...elements].sort((a, b) => a.tag - b.tag)) parts.push(header(e.tag, e.vr, e.value.length), e.value);
  return Buffer.concat(parts);
}

/** Values have even length: UIDs pad with NUL, text with a space (PS3.5 6.2). */
function padded(bytes: Buffer, pad: number): Buffer {
  return bytes.length % 2 === 0 ? bytes : Buffer.concat([bytes, Buffer.from([pad])]);
}

const ui = (tag: number, uid: string): Element => ({ tag, vr: 'UI', value: padded(Buffer.from(uid, 'latin1'), 0) });
const us = (tag: number, n: number): Element => {
  const value = Buffer.alloc(2);
  value.writeUInt16LE(n);
  return { tag, vr: 'US', value };
};

/** Encodes one image as a complete Part-10 file (preamble, `DICM`, meta group, data set). */
export function encodeDicom(img: DicomImage): Buffer {
  if (img.pixels.length !== img.rows * img.cols)
    throw new Error(`expected ${img.rows * img.cols} pixels, got ${img.pixels.length}`);
  const encoding = img.charset === 'ISO_IR 192' ? 'utf8' : 'latin1';
  const text = (tag: number, vr: string, value: string): Element => ({
    tag,
    vr,
    value: padded(Buffer.from(value, encoding), 0x20),
  });
  const ascii = (tag: number, vr: string, value: string): Element => ({
    tag,
    vr,
    value: padded(Buffer.from(value, 'latin1'), 0x20),
  });
  const decimals = (values: number[]): string => values.map((v) => String(Number(v.toFixed(4)))).join('\\');

  const meta = encodeElements([
    { tag: 0x00020001, vr: 'OB', value: Buffer.from([0, 1]) },
    ui(0x00020002, img.sopClassUid),
    ui(0x00020003, img.sopInstanceUid),
    ui(0x00020010, UIDS.explicitVrLittleEndian),
    ui(0x00020012, UIDS.implementationClass),
    ascii(0x00020013, 'SH', 'SCANBRIDGE_DEMO'),
  ]);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(meta.length);

  const elements: Element[] = [
    ascii(0x00080005, 'CS', img.charset),
    ascii(0x00080008, 'CS', img.imageType.join('\\')),
    ui(0x00080016, img.sopClassUid),
    ui(0x00080018, img.sopInstanceUid),
    ascii(0x00080020, 'DA', img.studyDate),
    ascii(0x00080030, 'TM', img.studyTime),
    text(0x00080050, 'SH', img.accessionNumber),
    ascii(0x00080060, 'CS', img.modality),
    text(0x00080070, 'LO', img.manufacturer),
    text(0x00081030, 'LO', img.studyDescription),
    text(0x0008103e, 'LO', img.seriesDescription),
    text(0x00081090, 'LO', img.model),
    text(0x00100010, 'PN', img.patientName),
    text(0x00100020, 'LO', img.patientId),
    ascii(0x00100030, 'DA', img.birthDate),
    ascii(0x00100040, 'CS', img.sex),
    ui(0x0020000d, img.studyUid),
    ui(0x0020000e, img.seriesUid),
    ascii(0x00200010, 'SH', '1'),
    ascii(0x00200011, 'IS', String(img.seriesNumber)),
    ascii(0x00200013, 'IS', String(img.instanceNumber)),
    us(0x00280002, 1),
    ascii(0x00280004, 'CS', 'MONOCHROME2'),
    us(0x00280010, img.rows),
    us(0x00280011, img.cols),
    ascii(0x00280030, 'DS', decimals(img.pixelSpacing)),
    us(0x00280100, 16),
    us(0x00280101, 12),
    us(0x00280102, 11),
    us(0x00280103, 0),
    ascii(0x00281050, 'DS', String(img.window.center)),
    ascii(0x00281051, 'DS', String(img.window.width)),
    { tag: 0x7fe00010, vr: 'OW', value: Buffer.from(img.pixels.buffer, img.pixels.byteOffset, img.pixels.byteLength) },
  ];
  if (img.slice) {
    elements.push(
      ascii(0x00180050, 'DS', decimals([img.slice.thickness])),
      ascii(0x00200032, 'DS', decimals(img.slice.position)),
      ascii(0x00200037, 'DS', '1\\0\\0\\0\\1\\0'),
      ascii(0x00201041, 'DS', decimals([img.slice.position[2]])),
    );
  }
  return Buffer.concat([
    Buffer.alloc(128),
    Buffer.from('DICM', 'latin1'),
    header(0x00020000, 'UL', 4),
    groupLength,
    meta,
    encodeElements(elements),
  ]);
}
