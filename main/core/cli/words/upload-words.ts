// The words `scanbridge upload` prints, in the terminal's language (terminalLanguage): its steps,
// its progress line, the engine's notices (said from their codes and facts, not from the English
// message) and the failure that stopped it. Numbers follow the language too ("1,5 MB" in Spanish).
// No patient data: lines carry exam ids, counts and file names from the disk (escaped by the caller).
import { ApiError, apiFailure } from '../../api/http';
import { failureWords } from '../../net/failure-class';
import type { WordsLanguage } from '../../net/failure-words';
import { clockSkewWords } from '../../net/clock-words';
import { journalDamageWords } from '../../upload/state';
import type { NoticeCode, NoticeParams, UploadErrorCode } from '../../upload';
import type { UploadError } from '../../upload/ports';
import type { ChoiceWhy } from '../../upload/compression';

/** The upload modes as a Spanish sentence says them (the flag's values stay `files` / `zip`). */
const modeEs = (mode: string): string => (mode === 'zip' ? 'en un ZIP' : 'archivo por archivo');

const smallerEs = (ratio: number | undefined): string => `${num('es', 1 / Math.max(ratio ?? 1, 1e-6), 1)}× más pequeño`;

/** The transport choice's reason in Spanish (compression-choice.ts says it in English). */
function whyEs(why: ChoiceWhy): string {
  switch (why.key) {
    case 'files_mode':
      return 'archivo por archivo se envía cada archivo tal cual';
    case 'off':
      return 'la compresión está desactivada';
    case 'file_too_large':
      return 'un archivo es demasiado grande para un ZIP comprimido';
    case 'always':
      return 'la compresión está siempre activada';
    case 'cannot_pay':
      return 'comprimir no conviene con esta conexión (este equipo comprime más lento de lo que envía)';
    case 'does_not_compress':
      return `los datos no se comprimen (${smallerEs(why.ratio)})`;
    case 'over_limit':
      return 'aun comprimido, el ZIP superaría el límite de 1 GB';
    case 'only_fits':
      return `solo comprimido (${smallerEs(why.ratio)}) el ZIP cabe en el límite de 1 GB`;
    case 'shortens':
      return `comprimir (${smallerEs(why.ratio)}) acorta la subida de unos ${why.fromS} s a ${why.toS} s`;
    case 'no_shorter':
      return `comprimir no acortaría la subida (unos ${why.fromS} s de todos modos)`;
  }
}

const num = (lang: WordsLanguage, n: number, digits: number): string =>
  new Intl.NumberFormat(lang === 'es' ? 'es-CL' : 'en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);

/** A duration in seconds, minutes or hours. */
export function durationIn(lang: WordsLanguage, s: number): string {
  if (s < 90) return `${s} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${num(lang, s / 3600, 1)} h`;
}

export type UploadWords = {
  compressing: string;
  creating: string;
  sending: (examId: string) => string;
  paused: string;
  finishing: string;
  ready: (examId: string) => string;
  retryingFile: (name: string, attempt: number, reason: string) => string;
  left: (duration: string) => string;
  files: (done: number, total: number) => string;
  of: (a: string, b: string) => string;
  perSecond: (rate: string) => string;
  compressingShare: (times: string | null) => string;
  percentOf: (pct: number, total: string) => string;
  sendingShort: string;
  onTheWire: (sent: string, total: string, study: string, times: string | null) => string;
  perSecondOnWire: (rate: string) => string;
  stillCompressing: (pct: number) => string;
  smaller: (ratio: number) => string;
  interrupted: (examId: string | null) => string;
  sandbox: string;
  busy: (pid: number) => string;
  nothingToCancel: (root: string) => string;
  cancelledUpload: (root: string, examId: string | null) => string;
  resumedAsStarted: string;
  uploading: (files: number, bytes: string, root: string, mode: string, compressed: boolean) => string;
  mode: (mode: string, compressed: boolean, reason: string, why: ChoiceWhy) => string;
  leftOut: (examId: string, count: number) => string;
  alreadyUploaded: (examId: string) => string;
  manyStudies: (count: number) => string;
  manyPatients: string;
  skipping: (count: number) => string;
  noFiles: (root: string, skipped: number) => string;
  cannotReadWhole: (count: number, root: string) => string;
  waitForExport: string;
  notice: (code: NoticeCode, p: NoticeParams) => string | null;
  runAgain: string;
  /** After the words of a full disk: the upload waits and goes on by itself. */
  waitingForRoom: string;
};

const EN: UploadWords = {
  compressing: 'Compressing the study (lossless)…',
  creating: 'Creating the exam…',
  sending: (id) => `Sending to exam ${id}…`,
  paused: 'Paused.',
  finishing: 'Finishing the exam…',
  ready: (id) => `Exam ${id} is ready.`,
  retryingFile: (name, attempt, reason) => `  retrying ${name} (attempt ${attempt}): ${reason}`,
  left: (d) => `${d} left`,
  files: (done, total) => `${done}/${total} files`,
  of: (a, b) => `${a} of ${b}`,
  perSecond: (r) => `${r}/s`,
  compressingShare: (times) => `compressing${times ? ` (${times})` : ''}…`,
  percentOf: (pct, total) => `${pct}% of ${total}`,
  sendingShort: 'sending…',
  onTheWire: (sent, total, study, times) =>
    `${sent} of ${total} on the wire (study ${study}${times ? `, ${times}` : ''})`,
  perSecondOnWire: (r) => `${r}/s on the wire`,
  stillCompressing: (pct) => `still compressing (${pct}% done)`,
  smaller: (ratio) => `${num('en', ratio, 1)}× smaller`,
  interrupted: (id) => `interrupted. Run the same command again to resume exam ${id ?? '(not created yet)'}.`,
  sandbox: 'Using a SANDBOX key: the exam is test data.',
  busy: (pid) =>
    `another upload of this study is running (pid ${pid}). Wait for it to end, or run again with --wait <seconds>.`,
  nothingToCancel: (root) => `There is no interrupted upload of ${root} to cancel.`,
  cancelledUpload: (root, id) => `Cancelled the upload of ${root}${id ? `; exam ${id} was deleted` : ''}.`,
  resumedAsStarted:
    'An interrupted upload of this folder exists: it is resumed with the name, type, patient and mode it started with.',
  uploading: (files, bytes, root, mode, compressed) =>
    `Uploading ${files} files (${bytes}) from ${root} in ${mode} mode${compressed ? ', compressed' : ''}.`,
  mode: (mode, compressed, reason) => `Mode: ${mode}${compressed ? ', compressed' : ''} (${reason}).`,
  leftOut: (id, count) =>
    `Note: exam ${id} was uploaded without ${count} file(s) that could not be read whole (--allow-incomplete):`,
  alreadyUploaded: (id) =>
    `These files were already uploaded as exam ${id}; nothing to do. (Delete that exam to upload them again.)`,
  manyStudies: (n) => `The folder holds ${n} studies; they are uploaded together as one exam.`,
  manyPatients: 'Warning: the files belong to more than one patient. Check the folder before sharing the exam.',
  skipping: (n) => `Skipping ${n} file(s) that are not DICOM or mesh.`,
  noFiles: (root, skipped) =>
    `no DICOM or mesh files found in ${root}${skipped ? ` (${skipped} other files skipped)` : ''}.`,
  cannotReadWhole: (n, root) => `${n} file(s) of ${root} cannot be read whole; nothing was uploaded:`,
  waitForExport:
    'Wait until the export is complete (or fix the permissions) and run again, or add --allow-incomplete to upload the rest without them.',
  notice: () => null,
  runAgain: 'Then run the upload again to continue.',
  waitingForRoom:
    'The upload waits and goes on by itself once there is room (Ctrl+C stops it; the same command resumes it later).',
};

const ES: UploadWords = {
  compressing: 'Comprimiendo el estudio (sin pérdida)…',
  creating: 'Creando el examen…',
  sending: (id) => `Enviando al examen ${id}…`,
  paused: 'En pausa.',
  finishing: 'Terminando el examen…',
  ready: (id) => `El examen ${id} está listo.`,
  retryingFile: (name, attempt, reason) => `  reintentando ${name} (intento ${attempt}): ${reason}`,
  left: (d) => `quedan ${d}`,
  files: (done, total) => `${done}/${total} archivos`,
  of: (a, b) => `${a} de ${b}`,
  perSecond: (r) => `${r}/s`,
  compressingShare: (times) => `comprimiendo${times ? ` (${times})` : ''}…`,
  percentOf: (pct, total) => `${pct}% de ${total}`,
  sendingShort: 'enviando…',
  onTheWire: (sent, total, study, times) =>
    `${sent} de ${total} por la red (estudio de ${study}${times ? `, ${times}` : ''})`,
  perSecondOnWire: (r) => `${r}/s por la red`,
  stillCompressing: (pct) => `aún comprimiendo (${pct}% hecho)`,
  smaller: (ratio) => `${num('es', ratio, 1)}× más pequeño`,
  interrupted: (id) =>
    `interrumpida. Vuelva a ejecutar el mismo comando para continuar el examen ${id ?? '(aún no creado)'}.`,
  sandbox: 'Se usa una clave de PRUEBA (sandbox): el examen son datos de prueba.',
  busy: (pid) =>
    `otra subida de este estudio está en curso (pid ${pid}). Espere a que termine, o vuelva a ejecutar con --wait <segundos>.`,
  nothingToCancel: (root) => `No hay una subida interrumpida de ${root} que cancelar.`,
  cancelledUpload: (root, id) => `Se canceló la subida de ${root}${id ? `; se eliminó el examen ${id}` : ''}.`,
  resumedAsStarted:
    'Hay una subida interrumpida de esta carpeta: se continúa con el nombre, tipo, paciente y modo con que empezó.',
  uploading: (files, bytes, root, mode, compressed) =>
    `Subiendo ${files} archivos (${bytes}) de ${root} ${modeEs(mode)}${compressed ? ', comprimido' : ''}.`,
  mode: (mode, compressed, _reason, why) => `Modo: ${modeEs(mode)}${compressed ? ', comprimido' : ''} (${whyEs(why)}).`,
  leftOut: (id, count) =>
    `Nota: el examen ${id} se subió sin ${count} archivo(s) que no se pudieron leer completos (--allow-incomplete):`,
  alreadyUploaded: (id) =>
    `Estos archivos ya se subieron como el examen ${id}; no hay nada que hacer. (Elimine ese examen para subirlos de nuevo.)`,
  manyStudies: (n) => `La carpeta contiene ${n} estudios; se suben juntos como un examen.`,
  manyPatients: 'Atención: los archivos son de más de un paciente. Revise la carpeta antes de compartir el examen.',
  skipping: (n) => `Se omiten ${n} archivo(s) que no son DICOM ni malla.`,
  noFiles: (root, skipped) =>
    `no se encontraron archivos DICOM ni mallas en ${root}${skipped ? ` (se omitieron otros ${skipped} archivos)` : ''}.`,
  cannotReadWhole: (n, root) => `${n} archivo(s) de ${root} no se pueden leer completos; no se subió nada:`,
  waitForExport:
    'Espere a que la exportación termine (o corrija los permisos) y vuelva a ejecutar, o agregue --allow-incomplete para subir el resto sin ellos.',
  notice: (code, p) => {
    switch (code) {
      case 'resumed':
        if (typeof p['compressed'] === 'number')
          return `Continuando la compresión (${p['compressed']} de ${p['total']} archivos ya comprimidos).`;
        return `Continuando la subida interrumpida${p['exam_id'] ? ` del examen ${p['exam_id']}` : ''} (${
          p['mode'] === 'zip' ? 'el ZIP se envía de nuevo' : `${p['stored']} de ${p['total']} archivos ya guardados`
        }).`;
      case 'orphan_removed':
        return p['this_run']
          ? `Se eliminó el examen ${p['exam_id']}: el servicio lo creó, pero su respuesta se perdió (tiempo agotado o error); se crea de nuevo.`
          : `Se eliminó el examen ${p['exam_id']}, que una subida interrumpida dejó a medias.`;
      case 'exam_recreated':
        return p['why'] === 'over_budget'
          ? 'El estudio comprimido resultó más grande de lo estimado; el examen se crea de nuevo con su tamaño exacto.'
          : 'Los enlaces de subida vencieron; el examen se crea de nuevo y sus archivos se envían otra vez.';
      case 'rate_limited':
        return `Se alcanzó el límite de solicitudes del servicio; esperando ${p['seconds']} s.`;
      case 'api_retry':
        return `El servicio no respondió bien (${p['code']}); reintentando.`;
      case 'files_missing':
        return `Al servicio le faltan ${p['count']} archivo(s); se envían de nuevo.`;
      case 'clock_skew':
        return typeof p['skew_ms'] === 'number' ? clockSkewWords(p['skew_ms'], 'es') : null;
      case 'journal_damaged':
        return journalDamageWords(p, 'es');
    }
  },
  runAgain: 'Luego vuelva a ejecutar la subida para continuar.',
  waitingForRoom:
    'La subida espera y sigue sola cuando haya espacio (Ctrl+C la detiene; el mismo comando la retoma después).',
};

/** Each failure's sentence in Spanish (the English one is the engine's own message). */
const ES_FAILURES: Record<UploadErrorCode, string> = {
  no_files: 'La carpeta no tiene archivos para subir.',
  too_many_files: 'El estudio tiene más archivos de los que acepta un examen.',
  zip_too_large: 'El estudio es demasiado grande para enviarse como un ZIP; súbalo archivo por archivo (--mode files).',
  name_required: 'El examen necesita un nombre (--name).',
  name_too_long: 'El nombre del examen es demasiado largo.',
  invalid_file_name: 'Un nombre de archivo no es válido para el servicio.',
  duplicate_file_name: 'Dos archivos tienen el mismo nombre.',
  file_unreadable: 'No se pudo leer un archivo del estudio. Revise que exista y que este usuario pueda abrirlo.',
  incomplete_study: 'Algunos archivos del estudio no se pueden leer completos; no se envió nada.',
  file_changed:
    'Un archivo cambió mientras se enviaba. Espere a que la exportación termine y vuelva a ejecutar la subida.',
  rejected: 'El servicio rechazó el examen. Revise los datos del examen y los límites de su plan.',
  exam_deleted: 'El examen se eliminó en el servicio mientras se enviaban sus archivos.',
  take_unfinished: 'Una toma adicional quedó a medias en el servicio y no se puede completar ni eliminar.',
  storage_rejected: 'El almacenamiento rechazó un archivo.',
  urls_keep_expiring:
    'Los enlaces de subida siguen venciendo antes de enviar los archivos; revise la velocidad de la conexión y el reloj del equipo, y vuelva a ejecutar la subida.',
  incomplete_after_confirm: 'El servicio sigue sin tener todos los archivos después de confirmar.',
  busy: 'Otro proceso de este equipo está subiendo el mismo estudio.',
  network: 'La subida se detuvo por un problema de la red o del servicio.',
  interrupted: 'La subida se interrumpió.',
  cancelled: 'La subida se canceló.',
  disk_full: 'El disco donde ScanBridge guarda su trabajo está lleno; libere espacio y vuelva a ejecutar la subida.',
};

/** The words of `scanbridge upload` in `lang`. */
export function uploadWords(lang: WordsLanguage): UploadWords {
  return lang === 'es' ? ES : EN;
}

/** An engine notice in `lang`: from its code and facts when known, else its own (English) message. */
export function noticeWords(
  lang: WordsLanguage,
  notice: { code: NoticeCode; message: string; params?: NoticeParams },
): string {
  return (notice.params && uploadWords(lang).notice(notice.code, notice.params)) || notice.message;
}

/** The API client's error behind an upload's failure, through its causes. */
function apiErrorBehind(err: unknown): ApiError | null {
  let e: unknown = err;
  for (let i = 0; i < 8 && e instanceof Error; i++) {
    if (e instanceof ApiError) return e;
    e = e.cause;
  }
  return null;
}

/**
 * The failure that stopped an upload, in `lang` (network failures with a known cause are said by
 * the caller in the network's own words). English keeps the engine's message, which names the file
 * or the status; Spanish says the code's sentence, and the class's words when the service's error
 * is known (a time-out, the service failing, the key refused…).
 */
export function uploadErrorWords(err: UploadError, lang: WordsLanguage): string {
  if (lang === 'en') return err.message;
  const api = apiErrorBehind(err);
  const failure = api ? apiFailure(api) : null;
  if (failure && (err.code === 'network' || err.code === 'rejected')) {
    return err.resumable ? `${failureWords(failure, lang)} ${ES.runAgain}` : failureWords(failure, lang);
  }
  const words = ES_FAILURES[err.code];
  return err.resumable ? `${words} ${ES.runAgain}` : words;
}
