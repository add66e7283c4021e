import { escapeHtml } from '../core/http';
import type { Account, Exam } from '../core/state';

/** The small public HTML pages of the emulator: viewer, embed, clinic public page. Every value is escaped. */

const TYPE_LABELS: Record<Exam['exam_type'], string> = {
  cbct: 'CBCT',
  radiografia: 'Radiografía',
  mesh: 'Modelo 3D',
  atm: 'ATM',
};

export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    '<style>body{font-family:sans-serif;margin:2rem;color:#222}dt{font-weight:bold}.muted{color:#666}</style>' +
    `</head><body>${body}</body></html>`
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/** The viewer behind share_url, viewer_url and the embed iframe. */
export function viewerPage(
  exam: Exam,
  opts: { title?: string | null; showYear?: boolean; showType?: boolean } = {},
): string {
  const title = opts.title ?? exam.name;
  const rows: string[] = [];
  if (exam.patient_name) rows.push(`<dt>Paciente</dt><dd class="patient">${escapeHtml(exam.patient_name)}</dd>`);
  if (opts.showType ?? true) rows.push(`<dt>Tipo</dt><dd>${escapeHtml(TYPE_LABELS[exam.exam_type])}</dd>`);
  if (opts.showYear ?? true) rows.push(`<dt>Año</dt><dd>${escapeHtml(exam.created_at.slice(0, 4))}</dd>`);
  const status =
    exam.status === 'ready'
      ? `<p>${escapeHtml(String(exam.files.length))} archivos listos para visualizar.</p>`
      : '<p class="muted">El examen aún se está subiendo.</p>';
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><dl>${rows.join('')}</dl>${status}` +
      `<div id="viewer" data-exam="${escapeHtml(exam.id)}" data-type="${escapeHtml(exam.exam_type)}"></div>`,
  );
}

export function pinFormPage(account: Account): string {
  return page(
    account.clinic_name,
    `<h1>${escapeHtml(account.clinic_name)}</h1>` +
      '<form method="get"><label>PIN del examen <input name="pin" inputmode="numeric" pattern="[0-9]{6}" required></label>' +
      '<button type="submit">Ver examen</button></form>',
  );
}

/** The clinic public page once the patient typed the exam's PIN. */
export function publicExamPage(account: Account, exam: Exam, viewerUrl: string): string {
  return page(
    account.clinic_name,
    `<h1>${escapeHtml(account.clinic_name)}</h1><ul class="exams"><li class="exam">` +
      `<a href="${escapeHtml(viewerUrl)}">${escapeHtml(exam.name)}</a> — ${escapeHtml(TYPE_LABELS[exam.exam_type])}, ` +
      `${escapeHtml(exam.created_at.slice(0, 10))}${exam.patient_name ? `, <span class="patient">${escapeHtml(exam.patient_name)}</span>` : ''}` +
      '</li></ul>',
  );
}

export function iframeSnippet(embedUrl: string, title: string): string {
  return `<iframe src="${escapeHtml(embedUrl)}" title="${escapeHtml(title)}" width="800" height="600" style="border:0" allowfullscreen></iframe>`;
}
