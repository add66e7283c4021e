// The words `scanbridge upload` prints, in the terminal's language (terminalLanguage): its steps,
// its progress line, the engine's notices (said from their codes and facts, not from the English
// message) and the failure that stopped it. Numbers follow the language too ("1,5 MB" in Spanish).
// No patient data: lines carry exam ids, counts and file names from the disk (escaped by the caller).
import { ApiError, apiFailure } from '../../api/http';
import { failureWords } from '../../net/failure-class';
import { t, type Language } from '../../i18n';
import { noticeWords as engineNoticeWords } from '../../upload/state';
import type { NoticeCode, NoticeParams, UploadErrorCode } from '../../upload';
import type { UploadError } from '../../upload/ports';
import { type ChoiceWhy, choiceWords } from '../../upload/compression';

const num = (lang: Language, n: number, digits: number): string =>
  new Intl.NumberFormat(lang === 'es' ? 'es-CL' : 'en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);

/** A duration in seconds, minutes or hours. */
export function durationIn(lang: Language, s: number): string {
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

/** The mode as the lines name it (`zip`, `files`). */
const modeKey = (mode: string): 'zip' | 'files' => (mode === 'zip' ? 'zip' : 'files');

/** The words of `scanbridge upload` in `lang`, from the catalogue (`cli.upload.*`). */
function wordsIn(lang: Language): UploadWords {
  const compressedSuffix = (compressed: boolean): string => (compressed ? t(lang, 'cli.upload.compressedSuffix') : '');
  return {
    compressing: t(lang, 'cli.upload.compressing'),
    creating: t(lang, 'cli.upload.creating'),
    sending: (examId) => t(lang, 'cli.upload.sending', { examId }),
    paused: t(lang, 'cli.upload.paused'),
    finishing: t(lang, 'cli.upload.finishing'),
    ready: (examId) => t(lang, 'cli.upload.ready', { examId }),
    retryingFile: (name, attempt, reason) => t(lang, 'cli.upload.retryingFile', { name, attempt, reason }),
    left: (duration) => t(lang, 'cli.upload.left', { duration }),
    files: (done, total) => t(lang, 'cli.upload.files', { done, total }),
    of: (a, b) => t(lang, 'cli.upload.of', { a, b }),
    perSecond: (rate) => t(lang, 'cli.upload.perSecond', { rate }),
    compressingShare: (times) =>
      times ? t(lang, 'cli.upload.compressingShareTimes', { times }) : t(lang, 'cli.upload.compressingShare'),
    percentOf: (pct, total) => t(lang, 'cli.upload.percentOf', { pct, total }),
    sendingShort: t(lang, 'cli.upload.sendingShort'),
    onTheWire: (sent, total, study, times) =>
      times
        ? t(lang, 'cli.upload.onTheWireTimes', { sent, total, study, times })
        : t(lang, 'cli.upload.onTheWire', { sent, total, study }),
    perSecondOnWire: (rate) => t(lang, 'cli.upload.perSecondOnWire', { rate }),
    stillCompressing: (pct) => t(lang, 'cli.upload.stillCompressing', { pct }),
    smaller: (ratio) => t(lang, 'cli.upload.smaller', { ratio: num(lang, ratio, 1) }),
    interrupted: (examId) =>
      t(lang, 'cli.upload.interrupted', { examId: examId ?? t(lang, 'cli.upload.notCreatedYet') }),
    sandbox: t(lang, 'cli.upload.sandbox'),
    busy: (pid) => t(lang, 'cli.upload.busy', { pid }),
    nothingToCancel: (root) => t(lang, 'cli.upload.nothingToCancel', { root }),
    cancelledUpload: (root, examId) =>
      examId
        ? t(lang, 'cli.upload.cancelledUploadDeleted', { root, examId })
        : t(lang, 'cli.upload.cancelledUpload', { root }),
    resumedAsStarted: t(lang, 'cli.upload.resumedAsStarted'),
    uploading: (files, bytes, root, mode, compressed) =>
      t(lang, 'cli.upload.uploading', {
        files,
        bytes,
        root,
        mode: t(lang, `cli.upload.modeName.${modeKey(mode)}`),
        compressed: compressedSuffix(compressed),
      }),
    mode: (mode, compressed, reason, why) =>
      t(lang, 'cli.upload.mode', {
        mode: t(lang, `cli.upload.modeShort.${modeKey(mode)}`),
        compressed: compressedSuffix(compressed),
        reason: lang === 'en' ? reason : choiceWords(why, lang),
      }),
    leftOut: (examId, count) => t(lang, 'cli.upload.leftOut', { examId, count: String(count) }),
    alreadyUploaded: (examId) => t(lang, 'cli.upload.alreadyUploaded', { examId }),
    manyStudies: (n) => t(lang, 'cli.upload.manyStudies', { n }),
    manyPatients: t(lang, 'cli.upload.manyPatients'),
    skipping: (n) => t(lang, 'cli.upload.skipping', { n }),
    noFiles: (root, skipped) =>
      skipped ? t(lang, 'cli.upload.noFilesSkipped', { root, skipped }) : t(lang, 'cli.upload.noFiles', { root }),
    cannotReadWhole: (n, root) => t(lang, 'cli.upload.cannotReadWhole', { n, root }),
    waitForExport: t(lang, 'cli.upload.waitForExport'),
    notice: (code, p) => (lang === 'es' ? engineNoticeWords(code, p, lang) : null),
    runAgain: t(lang, 'cli.runAgain'),
    waitingForRoom: t(lang, 'cli.upload.waitingForRoom'),
  };
}

const WORDS: Record<Language, UploadWords> = { en: wordsIn('en'), es: wordsIn('es') };

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
export function uploadWords(lang: Language): UploadWords {
  return WORDS[lang];
}

/** An engine notice in `lang`: from its code and facts when known, else its own (English) message. */
export function noticeWords(
  lang: Language,
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
export function uploadErrorWords(err: UploadError, lang: Language): string {
  if (lang === 'en') return err.message;
  const api = apiErrorBehind(err);
  const failure = api ? apiFailure(api) : null;
  if (failure && (err.code === 'network' || err.code === 'rejected')) {
    return err.resumable ? `${failureWords(failure, lang)} ${t(lang, 'cli.runAgain')}` : failureWords(failure, lang);
  }
  const words = ES_FAILURES[err.code];
  return err.resumable ? `${words} ${t(lang, 'cli.runAgain')}` : words;
}
