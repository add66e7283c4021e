// What the demo's service holds before the app opens, so that every screen has something to show:
// ready exams of three types, a referring dentist, a signed report, a consent waiting to be signed
// and a support ticket with the clinic's answer. Made with API v1 calls (and the emulator's control
// API for the reply), as any client would.
import { PDFDocument, StandardFonts } from 'pdf-lib';

type Json = Record<string, unknown>;
type Service = { base_url: string; control_url: string; key: string };

async function call(s: Service, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${s.base_url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${s.key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}`);
  return json;
}

/** One ready exam: created in files mode, its (small, sample) files PUT, then confirmed. */
async function readyExam(s: Service, fields: Json, files: { name: string; size: number }[]): Promise<string> {
  const exam = await call(s, 'POST', '/exams', { ...fields, upload_mode: 'files', files });
  const urls = exam['upload_urls'] as { name: string; url: string }[];
  for (const [i, u] of urls.entries()) {
    const size = files[i]?.size ?? 0;
    const res = await fetch(u.url, { method: 'PUT', body: new Uint8Array(size).fill(i + 1) });
    if (!res.ok) throw new Error(`PUT ${u.name} → ${res.status}`);
  }
  const id = String(exam['id']);
  await call(s, 'POST', `/exams/${id}/confirm`);
  return id;
}

async function reportPdf(title: string): Promise<string> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(title, { x: 60, y: 760, size: 16, font });
  page.drawText('Sin hallazgos patológicos. Implante 4,1 × 10 mm en 3.6 bien posicionado.', {
    x: 60,
    y: 720,
    size: 11,
    font,
  });
  return Buffer.from(await doc.save()).toString('base64');
}

/** Seeds the demo's account; returns the ids made. */
export async function seedDemoService(s: Service): Promise<{ exams: string[] }> {
  const files = (n: number, ext = 'dcm') =>
    Array.from({ length: n }, (_, i) => ({ name: `IMG${i + 1}.${ext}`, size: 2048 }));
  const cbct = await readyExam(
    s,
    {
      name: 'CBCT maxilar — Carolina Fuentes',
      exam_type: 'cbct',
      patient_name: 'Carolina Fuentes Ibáñez',
      patient_id: '15.432.678-2',
      birth_date: '1984-06-12',
      reason: 'Planificación de implante 3.6',
    },
    files(6),
  );
  const pano = await readyExam(
    s,
    {
      name: 'Panorámica — Ignacio Muñoz',
      exam_type: 'radiografia',
      patient_name: 'Ignacio Muñoz Soto',
      patient_id: '18.765.432-7',
      birth_date: '1992-02-03',
    },
    files(1),
  );
  const atm = await readyExam(
    s,
    {
      name: 'ATM bilateral — Rosa Peña',
      exam_type: 'atm',
      patient_name: 'Rosa Peña Araya',
      patient_id: '9.876.544-1',
      birth_date: '1970-11-20',
    },
    files(4),
  );
  await call(s, 'POST', '/referrers', {
    name: 'Dra. Valentina Rojas',
    email: 'vrojas@clinica-dental.example',
    phone: '+56 9 8765 4321',
    specialty: 'Implantología',
  });
  await call(s, 'POST', `/exams/${cbct}/report`, {
    pdf_base64: await reportPdf('Informe CBCT maxilar'),
    filename: 'informe-cbct.pdf',
  });
  await call(s, 'POST', `/exams/${cbct}/report/sign`);
  await call(s, 'POST', `/exams/${atm}/consent`, { country_code: 'CL', locale: 'es' });
  const ticket = await call(s, 'POST', '/support/tickets', {
    subject: 'El visor no abre en el computador de recepción',
    message: 'Al abrir el enlace del visor aparece una página en blanco.',
    category: 'viewer',
    exam_id: pano,
  });
  const ticketId = String((ticket['ticket'] as Json | undefined)?.['id'] ?? ticket['id']);
  const reply = await fetch(`${s.control_url}/tickets/${ticketId}/replies`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      body: 'Hola: actualice el navegador de recepción; el visor necesita una versión reciente. Saludos.',
    }),
  });
  if (!reply.ok) throw new Error(`ticket reply → ${reply.status}`);
  return { exams: [cbct, pano, atm] };
}
