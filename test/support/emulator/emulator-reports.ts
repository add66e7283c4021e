import { crc32, deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, StandardFonts, type PDFObject } from 'pdf-lib';
import { api, type EmulatorInfo } from './emulator';

/**
 * Shared fixtures of the consent, reports and webhooks suites: exams created through the API the way
 * a client does it, and real PDF/PNG documents.
 */

export type ExamOptions = { name?: string; patient_name?: string; patient_id?: string; birth_date?: string };

/** POST /exams with one file, PUT its bytes to the presigned URL, POST confirm: a ready exam's id. */
export async function createReadyExam(info: EmulatorInfo, key: string, opts: ExamOptions = {}): Promise<string> {
  const bytes = Buffer.from('DICM fixture bytes for a test exam');
  const created = await api(info, key, 'POST', '/exams', {
    name: opts.name ?? 'CBCT maxilar superior',
    ...opts,
    files: [{ name: 'series/slice-0001.dcm', size: bytes.length }],
  });
  if (created.status !== 201) throw new Error(`POST /exams → ${created.status} ${JSON.stringify(created.json)}`);
  const id = created.json['id'] as string;
  const urls = created.json['upload_urls'] as { url: string }[];
  const put = await fetch(urls[0]?.url ?? '', {
    method: 'PUT',
    body: bytes,
    headers: { 'Content-Length': String(bytes.length) },
  });
  if (put.status !== 200) throw new Error(`PUT upload → ${put.status} ${await put.text()}`);
  const confirmed = await api(info, key, 'POST', `/exams/${id}/confirm`);
  if (confirmed.status !== 200) throw new Error(`confirm → ${confirmed.status} ${JSON.stringify(confirmed.json)}`);
  return id;
}

/** A real one-page PDF carrying `text`. */
export async function makePdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, size: 14, font });
  return Buffer.from(await doc.save());
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A real grayscale PNG (a dark stroke across a white field), like a drawn signature. */
export function makePng(width = 160, height = 48): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width + 1, 255);
    row[0] = 0;
    for (let x = 0; x < width; x++) {
      const curve = Math.round(height / 2 + (height / 3) * Math.sin(x / 12));
      if (Math.abs(curve - y) <= 1) row[x + 1] = 20;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Loads a PDF with pdf-lib (so it must parse) and returns its page count and the text its pages draw
 * (the hex strings of standard-font text operators, decoded as WinAnsi/Latin-1).
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string; images: number }> {
  const doc = await PDFDocument.load(bytes);
  let text = '';
  let images = 0;
  for (const page of doc.getPages()) {
    const contents: PDFObject | undefined = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    for (const s of streams) {
      if (!(s instanceof PDFRawStream)) continue;
      const ops = Buffer.from(decodePDFRawStream(s).decode()).toString('latin1');
      for (const m of ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
        text += `${Buffer.from(m[1] ?? '', 'hex').toString('latin1')}\n`;
      images += [...ops.matchAll(/\/\S+\s+Do/g)].length;
    }
  }
  return { pages: doc.getPageCount(), text, images };
}
