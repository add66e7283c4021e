// The patient's printed sheet (the CD it replaces): the clinic, the patient and the exam, the
// clinic's public page with the access PIN and a QR code of its address, the viewer link and its
// password, and two lines of instructions. PDF by pdf-lib, QR matrix by `qrcode` (drawn as vector
// squares, so it stays sharp at any printer resolution). The standard Helvetica/Courier fonts use
// WinAnsi, which covers Spanish (á é í ó ú ñ ü ¿ ¡); a character outside it is written without its
// accent, or as "?" when it has no Latin form.
import { PDFDocument, PageSizes, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { type KeysUnder, t as text, type Language } from '../i18n';

export type PaperSize = 'A4' | 'A5';
export const PAPER_SIZES: readonly PaperSize[] = ['A4', 'A5'];

/** What the sheet shows (gathered from the service by sheet-data.ts). */
export type HandoutData = {
  clinicName: string;
  patientName: string;
  examName: string;
  examType: string;
  /** ISO date or timestamp of the exam. */
  examDate: string | null;
  publicUrl: string;
  pin: string;
  viewerUrl: string | null;
  password: string | null;
};

export type HandoutOptions = { language: Language; paper: PaperSize };

/** The sheet's words in one language: the catalogue's `core.handout.*`, written for the patient. */
type HandoutWords = (key: KeysUnder<'core.handout.'>) => string;

const sheetWords =
  (lang: Language): HandoutWords =>
  (key) =>
    text(lang, `core.handout.${key}`);

const EXAM_TYPES = ['cbct', 'radiografia', 'mesh', 'atm'] as const;

type Fonts = { regular: PDFFont; bold: PDFFont; mono: PDFFont; monoBold: PDFFont };

const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.4, 0.45);
const RULE = rgb(0.75, 0.77, 0.8);

/** `text` in characters `font` can draw: accents dropped where needed, else "?"; controls become spaces. */
export function drawable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0x3f;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      out += ' ';
      continue;
    }
    if (known.has(cp)) {
      out += ch;
      continue;
    }
    const base = [...ch.normalize('NFD')].filter((c) => known.has(c.codePointAt(0) ?? -1)).join('');
    out += base || '?';
  }
  return out;
}

/** Lines of at most `width` points; a word longer than a line (an address) is cut where it must. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const fits = (s: string): boolean => font.widthOfTextAtSize(s, size) <= width;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next)) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (!fits(rest)) {
      let n = rest.length - 1;
      while (n > 1 && !fits(rest.slice(0, n))) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

/** The exam's date in the sheet's language ("26 de noviembre de 2026"), or the text as given. */
function formatDate(value: string | null, t: HandoutWords): string {
  if (!value) return '—';
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T12:00:00Z` : value);
  if (Number.isNaN(d.getTime())) return value;
  return new Intl.DateTimeFormat(t('dateLocale'), { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}

/** The exam type in the patient's words, or its code when the sheet has none for it. */
function examTypeWords(examType: string, t: HandoutWords): string {
  const known = EXAM_TYPES.find((x) => x === examType);
  return known ? t(`examType.${known}`) : examType;
}

/** Draws the QR code of `text` as squares, `size` points wide with its quiet zone, top-left at (x, top). */
function drawQr(page: PDFPage, text: string, x: number, top: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 4;
  const cell = size / (n + 2 * quiet);
  page.drawRectangle({ x, y: top - size, width: size, height: size, color: rgb(1, 1, 1) });
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      // A hair wider than the cell, so that neighbouring squares print without white seams.
      page.drawRectangle({
        x: x + (quiet + c) * cell,
        y: top - (quiet + r + 1) * cell,
        width: cell + 0.05,
        height: cell + 0.05,
        color: rgb(0, 0, 0),
      });
    }
  }
}

/** A page cursor: writes lines downwards from the top margin, everything scaled to the paper. */
class Writer {
  y: number;
  constructor(
    readonly page: PDFPage,
    readonly fonts: Fonts,
    readonly s: number,
    readonly left: number,
    readonly width: number,
  ) {
    this.y = page.getHeight() - 48 * s;
  }

  text(
    text: string,
    o: { font?: PDFFont; size: number; color?: ReturnType<typeof rgb>; width?: number; x?: number },
  ): void {
    const font = o.font ?? this.fonts.regular;
    const size = o.size * this.s;
    for (const line of wrap(drawable(font, text), font, size, o.width ?? this.width)) {
      this.y -= size * 1.25;
      this.page.drawText(line, { x: o.x ?? this.left, y: this.y, size, font, color: o.color ?? INK });
    }
  }

  gap(points: number): void {
    this.y -= points * this.s;
  }

  rule(): void {
    this.gap(8);
    this.page.drawLine({
      start: { x: this.left, y: this.y },
      end: { x: this.left + this.width, y: this.y },
      thickness: 0.8 * this.s,
      color: RULE,
    });
    this.gap(6);
  }

  /** A small grey label, then its value. */
  field(label: string, value: string, o: { font?: PDFFont; size?: number; width?: number; x?: number } = {}): void {
    this.text(label, { size: 9, color: MUTED, ...(o.width ? { width: o.width } : {}), ...(o.x ? { x: o.x } : {}) });
    this.gap(1);
    this.text(value, { size: o.size ?? 12, ...o });
    this.gap(6);
  }
}

/** The public page, its PIN and the QR code of its address, side by side. */
function drawAccess(w: Writer, data: HandoutData, t: HandoutWords): void {
  const qrSize = 132 * w.s;
  const columnWidth = w.width - qrSize - 16 * w.s;
  const top = w.y;
  w.field(t('publicPage'), data.publicUrl, { font: w.fonts.mono, size: 11, width: columnWidth });
  w.field(t('pin'), data.pin, { font: w.fonts.monoBold, size: 26, width: columnWidth });
  const textBottom = w.y;
  const qrX = w.left + w.width - qrSize;
  drawQr(w.page, data.publicUrl, qrX, top - 4 * w.s, qrSize);
  w.y = top - 4 * w.s - qrSize;
  w.text(t('qrCaption'), { size: 8, color: MUTED, x: qrX, width: qrSize });
  w.y = Math.min(w.y, textBottom);
}

/** The sheet as a PDF. */
export async function renderHandout(
  data: HandoutData,
  opts: HandoutOptions,
): Promise<{ bytes: Uint8Array; pages: number }> {
  const t = sheetWords(opts.language);
  const doc = await PDFDocument.create();
  doc.setTitle(drawable(await doc.embedFont(StandardFonts.Helvetica), `${t('title')} — ${data.clinicName}`));
  doc.setLanguage(opts.language);
  doc.setCreator('ScanBridge');
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
    monoBold: await doc.embedFont(StandardFonts.CourierBold),
  };
  const [width, height] = opts.paper === 'A5' ? PageSizes.A5 : PageSizes.A4;
  const page = doc.addPage([width, height]);
  const s = width / PageSizes.A4[0];
  const margin = 48 * s;
  const w = new Writer(page, fonts, s, margin, width - 2 * margin);

  w.text(data.clinicName || '—', { font: fonts.bold, size: 18 });
  w.rule();
  w.text(t('title'), { font: fonts.bold, size: 15 });
  w.gap(8);
  const half = (w.width - 16 * s) / 2;
  const rowTop = w.y;
  w.field(t('patient'), data.patientName || '—', { width: half });
  w.field(t('type'), examTypeWords(data.examType, t), { width: half });
  const leftBottom = w.y;
  w.y = rowTop;
  const x2 = margin + half + 16 * s;
  w.field(t('exam'), data.examName || '—', { width: half, x: x2 });
  w.field(t('date'), formatDate(data.examDate, t), { width: half, x: x2 });
  w.y = Math.min(w.y, leftBottom);
  w.rule();
  drawAccess(w, data, t);
  w.rule();
  if (data.viewerUrl) w.field(t('viewer'), data.viewerUrl, { font: fonts.mono, size: 10 });
  if (data.password) w.field(t('password'), data.password, { font: fonts.monoBold, size: 14 });
  w.rule();
  for (const step of [t('step1'), t('step2')]) {
    w.text(step, { size: 11 });
    w.gap(4);
  }
  w.gap(6);
  w.text(t('keep'), { font: fonts.bold, size: 10, color: MUTED });
  const bytes = await doc.save();
  return { bytes, pages: doc.getPageCount() };
}
