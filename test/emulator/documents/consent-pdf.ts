import { PDFDocument, PageSizes, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { wording } from './consent-text';

export type ConsentSigner = {
  name: string;
  /** RUT (Chile) or other identity document number; null for e-mail signing. */
  document: string | null;
  signedAt: string;
  method: 'in_person' | 'email';
  /** The drawn signature (in person); e-mail signing prints the typed name instead. */
  signaturePng: Uint8Array | null;
};

export type ConsentDocument = {
  locale: string;
  countryCode: string;
  clinicName: string;
  examId: string;
  examName: string;
  examType: string;
  patientName: string | null;
  patientBirthDate: string | null;
  /** null renders the blank (unsigned) document. */
  signer: ConsentSigner | null;
};

const MARGIN = 56;
const TEXT = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);

/**
 * A real PDF of the informed consent. Standard fonts only cover WinAnsi (Latin-1 plus a few signs):
 * names in other scripts are printed with '?' for what cannot be encoded instead of failing.
 */
export async function renderConsentPdf(d: ConsentDocument): Promise<Buffer> {
  const w = wording(d.locale);
  const doc = await PDFDocument.create();
  doc.setTitle(w.title);
  doc.setSubject(`${d.examId}`);
  doc.setCreator('Imaging Exam Sharing Service');
  doc.setProducer('Imaging Exam Sharing Service');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const italic = await doc.embedFont(StandardFonts.HelveticaOblique);
  const pen = new Pen(doc, regular);

  pen.paragraph(d.clinicName, bold, 11, MUTED);
  pen.gap(6);
  pen.paragraph(w.title, bold, 17, TEXT);
  pen.gap(10);
  for (const p of w.paragraphs) {
    pen.paragraph(p, regular, 10.5, TEXT);
    pen.gap(6);
  }
  pen.gap(8);
  const l = w.labels;
  pen.field(l.clinic, d.clinicName, bold);
  pen.field(l.exam, d.examName, bold);
  pen.field(l.examType, d.examType, bold);
  pen.field(l.patient, d.patientName ?? '', bold);
  pen.field(l.birthDate, d.patientBirthDate ?? '', bold);

  const s = d.signer;
  pen.field(l.signer, s?.name ?? '', bold);
  pen.field(d.countryCode === 'CL' ? l.rut : l.document, s?.document ?? '', bold);
  pen.field(l.signedAt, s ? displayTime(s.signedAt) : '', bold);
  pen.field(l.method, s ? w.methods[s.method] : '', bold);
  pen.gap(14);

  pen.paragraph(l.signature, bold, 10.5, TEXT);
  const box = pen.box(90);
  if (s?.signaturePng) {
    const image = await doc.embedPng(s.signaturePng);
    const scale = Math.min((box.w - 16) / image.width, (box.h - 16) / image.height, 1);
    box.page.drawImage(image, { x: box.x + 8, y: box.y + 8, width: image.width * scale, height: image.height * scale });
  } else if (s) {
    box.page.drawText(pen.fit(s.name, italic, 22, box.w - 16), {
      x: box.x + 10,
      y: box.y + box.h / 2 - 8,
      size: 22,
      font: italic,
      color: TEXT,
    });
    pen.gap(4);
    pen.paragraph(w.typedSignatureNote, italic, 9, MUTED);
  } else {
    pen.gap(4);
    pen.paragraph(l.unsigned, italic, 9, MUTED);
  }
  return Buffer.from(await doc.save());
}

/** Whether pdf-lib can embed these PNG bytes (checked before anything is signed). */
export async function isReadablePng(png: Uint8Array): Promise<boolean> {
  try {
    const doc = await PDFDocument.create();
    await doc.embedPng(png);
    return true;
  } catch {
    return false;
  }
}

function displayTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** Lays text out top to bottom, wrapping lines and adding pages as needed. */
class Pen {
  private page: PDFPage;
  private y: number;
  private readonly width: number;
  private readonly charsets = new Map<PDFFont, Set<number>>();

  constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
  ) {
    this.page = doc.addPage(PageSizes.A4);
    this.y = this.page.getHeight() - MARGIN;
    this.width = this.page.getWidth() - 2 * MARGIN;
  }

  gap(points: number): void {
    this.y -= points;
  }

  /** The text with every character the font cannot encode replaced by '?'. */
  clean(text: string, font: PDFFont): string {
    let set = this.charsets.get(font);
    if (!set) {
      set = new Set(font.getCharacterSet());
      this.charsets.set(font, set);
    }
    let out = '';
    for (const ch of text.normalize('NFC').replace(/\s+/g, ' ')) {
      out += set.has(ch.codePointAt(0) ?? 0) ? ch : '?';
    }
    return out;
  }

  /** Cleans and shortens one line so that it fits `maxWidth`. */
  fit(text: string, font: PDFFont, size: number, maxWidth: number): string {
    let t = this.clean(text, font);
    while (t.length > 1 && font.widthOfTextAtSize(t, size) > maxWidth) t = t.slice(0, -1);
    return t;
  }

  private ensure(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.page = this.doc.addPage(PageSizes.A4);
    this.y = this.page.getHeight() - MARGIN;
  }

  private wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of this.clean(text, font).split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      // A single word wider than the line is broken by characters.
      while (font.widthOfTextAtSize(line, size) > maxWidth && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > maxWidth) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    if (line) lines.push(line);
    return lines;
  }

  paragraph(text: string, font: PDFFont, size: number, color = TEXT, indent = 0): void {
    for (const line of this.wrap(text, font, size, this.width - indent)) {
      this.ensure(size * 1.35);
      this.y -= size * 1.35;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color });
    }
  }

  /** "Label: value" with the value wrapped under its own column. */
  field(label: string, value: string, labelFont: PDFFont): void {
    const size = 10.5;
    const labelWidth = 130;
    const lines = this.wrap(value || '—', this.regular, size, this.width - labelWidth);
    this.ensure(size * 1.45);
    this.page.drawText(this.clean(`${label}:`, labelFont), {
      x: MARGIN,
      y: this.y - size * 1.45,
      size,
      font: labelFont,
      color: MUTED,
    });
    for (const line of lines) {
      this.ensure(size * 1.45);
      this.y -= size * 1.45;
      this.page.drawText(line, { x: MARGIN + labelWidth, y: this.y, size, font: this.regular, color: TEXT });
    }
  }

  /** A framed area of `height` points below the cursor. */
  box(height: number): { page: PDFPage; x: number; y: number; w: number; h: number } {
    this.ensure(height + 8);
    this.y -= height + 4;
    const area = { page: this.page, x: MARGIN, y: this.y, w: Math.min(this.width, 300), h: height };
    this.page.drawRectangle({
      x: area.x,
      y: area.y,
      width: area.w,
      height: area.h,
      borderColor: MUTED,
      borderWidth: 0.8,
    });
    return area;
  }
}
