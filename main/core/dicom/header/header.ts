// Reading the header of one DICOM file from a prefix of its bytes. Pure: no I/O here, so the
// same code runs in the scan workers, in the main thread and under the fuzz tests.
import dicomParser from 'dicom-parser';
import type { DataSet, ParseDicomOptions } from 'dicom-parser';
import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { decodeAscii, decodeText } from './charset';
import { cleanText } from './clean-text';
import { parseDicomDate } from './dates';
import { summarizeDicomdir } from './dicomdir';
import { prefillName, trimPadding } from './person-name';
import type { DicomHeader, ProbeOutcome } from './dicom-types';

/** First read of a file: enough for nearly every header. */
export const INITIAL_PREFIX_BYTES = 64 * 1024;
/** Largest prefix read to find the end of an image header (huge private groups exist, but rarely). */
export const MAX_HEADER_BYTES = 1024 * 1024;
/** A DICOMDIR has no pixel data and is read whole, up to this size. */
export const MAX_DICOMDIR_BYTES = 32 * 1024 * 1024;

const PIXEL_DATA = 'x7fe00010';
const DICOMDIR_SOP_CLASS = '1.2.840.10008.1.3.10';
const IMPLICIT_LE = '1.2.840.10008.1.2';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const DEFLATED_LE = '1.2.840.10008.1.2.1.99';
const UNDEFINED_LENGTH = 0xffffffff;
const MAX_INFLATED_BYTES = 8 * 1024 * 1024;

const VRS = new Set(
  'AE AS AT CS DA DS DT FL FD IS LO LT OB OD OF OL OV OW PN SH SL SQ SS ST SV TM UC UI UL UN UR US UT UV'.split(' '),
);

/** One step of reading a file: a verdict, or a request for a longer prefix. */
export type ParseStep = ProbeOutcome | { kind: 'need_more'; bytes: number };

type Layout = { kind: 'part10' } | { kind: 'meta-without-preamble' } | { kind: 'raw'; transferSyntax: string };

function isVrAt(b: Uint8Array, i: number): boolean {
  const a = b[i];
  const c = b[i + 1];
  if (a === undefined || c === undefined) return false;
  return VRS.has(String.fromCharCode(a, c));
}

function detectLayout(b: Uint8Array): Layout | null {
  if (b.length >= 132 && b[128] === 0x44 && b[129] === 0x49 && b[130] === 0x43 && b[131] === 0x4d) {
    return { kind: 'part10' };
  }
  // Files without the 128-byte preamble: a bare data set (older PACS and some CD exports) starts
  // with group 0008; a file meta group without preamble starts with group 0002 in explicit VR.
  if (b.length >= 8 && b[1] === 0x00) {
    if (b[0] === 0x02 && isVrAt(b, 4)) return { kind: 'meta-without-preamble' };
    if (b[0] === 0x08) return { kind: 'raw', transferSyntax: isVrAt(b, 4) ? EXPLICIT_LE : IMPLICIT_LE };
  }
  return null;
}

function errorText(e: unknown): string {
  if (typeof e === 'string') return e;
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && 'exception' in e)
    return errorText((e as { exception: unknown }).exception);
  return String(e);
}

function partialDataSet(e: unknown): DataSet | undefined {
  if (typeof e === 'object' && e !== null && 'dataSet' in e) {
    const ds = (e as { dataSet: unknown }).dataSet;
    if (typeof ds === 'object' && ds !== null && 'elements' in ds) return ds as DataSet;
  }
  return undefined;
}

// Buffer ran out before the header ended: the signature of a file cut short.
const OVERRUN = /overrun|past end|maxP ?osition|beyond|cannot be greater than/i;

// Storage classes whose objects always carry pixel data: without it, such a file was cut short.
const IMAGE_SOP_CLASS =
  /^1\.2\.840\.10008\.5\.1\.4\.1\.1\.(1|1\.1|1\.1\.1|1\.2|1\.2\.1|1\.3|1\.3\.1|2|2\.1|2\.2|4|4\.1|6\.1|7|7\.[1-4]|12\.1|12\.2|13\.1\.[1-3]|77\.1\.[1-6])$/;

/** Whether the part-10 meta group claims to run past the end of the file. */
function metaGroupCut(b: Uint8Array, fileSize: number): boolean {
  // (0002,0000) UL, the group length, is the first meta element: tag, 'UL', length 4, value.
  if (fileSize < 144) return true;
  if (b.length < 144 || b[132] !== 0x02 || b[133] !== 0 || b[134] !== 0 || b[135] !== 0) return false;
  const groupLength = Buffer.from(b.buffer, b.byteOffset, b.length).readUInt32LE(140);
  return 144 + groupLength > fileSize;
}

function isPreambleStart(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const expected = i < 128 ? 0 : (0x4d43_4944 >>> (8 * (i - 128))) & 0xff;
    if (b[i] !== expected) return false;
  }
  return b.length > 0;
}

/** The raw bytes of a top-level element's value, when it lies wholly inside the buffer. */
function rawValue(ds: DataSet, tag: string): Uint8Array | undefined {
  const el = ds.elements[tag];
  if (!el || el.length <= 0 || el.length === UNDEFINED_LENGTH) return undefined;
  const end = el.dataOffset + el.length;
  if (el.dataOffset < 0 || end > ds.byteArray.length) return undefined;
  return ds.byteArray.subarray(el.dataOffset, end);
}

function asciiValue(ds: DataSet, tag: string): string {
  const raw = rawValue(ds, tag);
  // Cleaned here, once: every header value reaches the inbox, the terminal and the service.
  return raw ? cleanText(trimPadding(decodeAscii(raw))).trim() : '';
}

function intValue(ds: DataSet, tag: string): number | null {
  const text = asciiValue(ds, tag).split('\\')[0]?.trim() ?? '';
  if (!/^[+-]?\d{1,10}$/.test(text)) return null;
  return Number(text);
}

function containsDicomdirClass(b: Uint8Array): boolean {
  // The Media Storage SOP Class UID sits in the first few hundred bytes of the meta group.
  const window = Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, 512));
  const at = window.indexOf(DICOMDIR_SOP_CLASS, 132, 'latin1');
  if (at < 0) return false;
  const next = window[at + DICOMDIR_SOP_CLASS.length];
  // The UID ends there, not merely starts there (a longer UID would go on with a digit or a dot).
  return next === undefined || (next !== 0x2e && (next < 0x30 || next > 0x39));
}

function inflater(bytes: Uint8Array, position: number): Uint8Array {
  // A prefix of a deflated file is a cut deflate stream: sync-flush yields what it holds. Pixel
  // data compresses enormously, so the input is shortened until its output stays bounded.
  let input = bytes.subarray(position);
  for (let attempt = 0; ; attempt++) {
    try {
      const inflated = inflateRawSync(input, {
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
        maxOutputLength: MAX_INFLATED_BYTES,
      });
      const out = Buffer.allocUnsafe(position + inflated.length);
      out.set(bytes.subarray(0, position), 0);
      out.set(inflated, position);
      return out;
    } catch (e) {
      if (!(e instanceof RangeError) || attempt >= 8 || input.length < 2048) throw e;
      input = input.subarray(0, Math.floor(input.length / 4));
    }
  }
}

function buildHeader(
  ds: DataSet,
  layout: Layout,
  fileSize: number,
  offsetShift: number,
  prefixLength: number,
): DicomHeader | null {
  const studyUid = asciiValue(ds, 'x0020000d');
  const seriesUid = asciiValue(ds, 'x0020000e');
  if (studyUid === '' || seriesUid === '') return null;
  const charset = asciiValue(ds, 'x00080005');
  const warnings: string[] = [];
  const text = (tag: string, vr: string): string => {
    const raw = rawValue(ds, tag);
    if (!raw) return '';
    const decoded = decodeText(charset, raw, vr);
    if (decoded.fallback && !warnings.includes('charset_fallback')) warnings.push('charset_fallback');
    // Cleaned after decoding (ISO 2022 sets use ESC legitimately, inside the encoded bytes).
    return cleanText(trimPadding(decoded.text)).trim();
  };
  const transferSyntax = layout.kind === 'raw' ? layout.transferSyntax : asciiValue(ds, 'x00020010');
  const pixel = ds.elements[PIXEL_DATA];
  const deflated = transferSyntax === DEFLATED_LE;
  const pixelComplete =
    !pixel || pixel.hadUndefinedLength === true || deflated
      ? true
      : pixel.dataOffset - offsetShift + pixel.length <= fileSize;
  // Offsets of a deflated file count inflated bytes: report the prefix that was read instead.
  const headerBytes = pixel && !deflated ? pixel.dataOffset - offsetShift : Math.min(prefixLength, fileSize);
  const nameRaw = text('x00100010', 'PN');
  return {
    sop_class_uid: asciiValue(ds, 'x00080016') || asciiValue(ds, 'x00020002'),
    sop_instance_uid: asciiValue(ds, 'x00080018') || asciiValue(ds, 'x00020003'),
    study_uid: studyUid,
    series_uid: seriesUid,
    transfer_syntax: transferSyntax,
    modality: asciiValue(ds, 'x00080060').toUpperCase(),
    patient_name_raw: nameRaw,
    patient_name: prefillName(nameRaw),
    patient_id: text('x00100020', 'LO'),
    birth_date: parseDicomDate(asciiValue(ds, 'x00100030')),
    study_date: parseDicomDate(asciiValue(ds, 'x00080020')),
    study_description: text('x00081030', 'LO'),
    series_description: text('x0008103e', 'LO'),
    series_number: intValue(ds, 'x00200011'),
    instance_number: intValue(ds, 'x00200013'),
    character_set: charset,
    manufacturer: text('x00080070', 'LO'),
    model: text('x00081090', 'LO'),
    pixel_data_complete: pixelComplete,
    header_bytes: headerBytes,
    warnings,
  };
}

function nextSize(current: number, fileSize: number, cap: number): number {
  return Math.min(fileSize, cap, Math.max(current * 4, INITIAL_PREFIX_BYTES));
}

/**
 * Reads a DICOM header from `bytes`, the first bytes of a file of `fileSize` bytes. Answers a
 * verdict, or `need_more` with the prefix length to read next when the header runs past `bytes`.
 * Never throws: anything unreadable becomes a skip reason.
 */
export function parseDicomPrefix(
  bytes: Uint8Array,
  fileSize: number,
  opts: { namedDicomdir?: boolean } = {},
): ParseStep {
  try {
    return parsePrefix(bytes, fileSize, opts.namedDicomdir === true);
  } catch (e) {
    return { kind: 'skipped', reason: 'malformed', detail: errorText(e).slice(0, 200) };
  }
}

function parsePrefix(input: Uint8Array, fileSize: number, namedDicomdir: boolean): ParseStep {
  const layout = detectLayout(input);
  if (!layout) {
    // A part-10 file cut inside its (zero) preamble or its `DICM` marker.
    const cutPreamble = input.length < 132 && fileSize === input.length && isPreambleStart(input);
    return { kind: 'skipped', reason: cutPreamble ? 'truncated' : 'not_dicom' };
  }
  const whole = input.length >= fileSize;
  let bytes = input;
  let offsetShift = 0;
  if (layout.kind === 'meta-without-preamble') {
    // Give it the preamble it lacks so the part-10 reader can handle the meta group.
    bytes = new Uint8Array(132 + input.length);
    bytes.set([0x44, 0x49, 0x43, 0x4d], 128);
    bytes.set(input, 132);
    offsetShift = 132;
  }
  const isDicomdir = namedDicomdir || (layout.kind === 'part10' && containsDicomdirClass(bytes));
  const cap = isDicomdir ? MAX_DICOMDIR_BYTES : MAX_HEADER_BYTES;
  const canGrow = !whole && input.length < cap;
  const options: ParseDicomOptions = { inflater };
  if (!isDicomdir) options.untilTag = PIXEL_DATA;
  if (layout.kind === 'raw') options.TransferSyntaxUID = layout.transferSyntax;

  let ds: DataSet;
  try {
    ds = dicomParser.parseDicom(bytes, options);
  } catch (e) {
    if (canGrow) return { kind: 'need_more', bytes: nextSize(input.length, fileSize, cap) };
    if (layout.kind === 'raw') return { kind: 'skipped', reason: 'not_dicom' };
    if (!whole) {
      // The header is longer than we are willing to read: keep what was read if it identifies the file.
      const partial = partialDataSet(e);
      const header = partial ? buildHeader(partial, layout, fileSize, offsetShift, input.length) : null;
      if (header && !isDicomdir) return { kind: 'dicom', header };
      return { kind: 'skipped', reason: 'malformed', detail: 'header longer than the read limit' };
    }
    const message = errorText(e);
    const cut = OVERRUN.test(message) || metaGroupCut(bytes, fileSize + offsetShift);
    return { kind: 'skipped', reason: cut ? 'truncated' : 'malformed', detail: message.slice(0, 200) };
  }

  if (isDicomdir) {
    if (!whole) {
      return canGrow
        ? { kind: 'need_more', bytes: nextSize(input.length, fileSize, cap) }
        : { kind: 'skipped', reason: 'malformed', detail: 'DICOMDIR larger than the read limit' };
    }
    return { kind: 'dicomdir', dicomdir: summarizeDicomdir(ds) };
  }
  // The parse can end cleanly on an element boundary that happens to be the end of the prefix.
  if (!whole && !ds.elements[PIXEL_DATA] && canGrow) {
    return { kind: 'need_more', bytes: nextSize(input.length, fileSize, cap) };
  }
  const header = buildHeader(ds, layout, fileSize, offsetShift, input.length);
  // An image without pixel data in a whole file: either cut on an element boundary or written
  // without it (some systems do). Its header is whole, so it still belongs to its study, which is
  // flagged incomplete with this file named and is not uploaded as it stands.
  const noPixels = !ds.elements[PIXEL_DATA] && !ds.elements.x7fe00008 && !ds.elements.x7fe00009;
  if (
    whole &&
    noPixels &&
    (ds.elements.x00280010 || IMAGE_SOP_CLASS.test(asciiValue(ds, 'x00020002') || asciiValue(ds, 'x00080016')))
  ) {
    if (!header) return { kind: 'skipped', reason: 'truncated', detail: 'image header without pixel data' };
    return { kind: 'dicom', header: { ...header, pixel_data_complete: false } };
  }
  if (!header)
    return {
      kind: 'skipped',
      reason: layout.kind === 'raw' ? 'not_dicom' : 'malformed',
      detail: 'no Study/Series Instance UID',
    };
  return { kind: 'dicom', header };
}
