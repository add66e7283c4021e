// The words `scanbridge watch` prints, in the terminal's language (terminalLanguage). Lines name
// the export by its path under the watched folder, exam ids and counts; never patient data.
import type { WordsLanguage } from '../../net/failure-words';
import { formatBytes } from '../../upload/plan';

export type WatchWords = {
  loose: string;
  ready: (studies: number) => string;
  changed: string;
  waiting: (reasons: string) => string;
  cutShort: string;
  unreadable: string;
  missingFromDicomdir: string;
  changedWhileChecking: string;
  /** After the first files named: how many more there are. */
  andMore: (n: number) => string;
  /** After the words of a full disk: the study is taken in again by itself. */
  resumesWithRoom: string;
  uploading: (modality: string, examType: string, files: number, bytes: number) => string;
  alreadyUploaded: (examId: string, elsewhere: boolean) => string;
  held: (by: string) => string;
  unclaimable: (reason: string) => string;
  failed: (message: string) => string;
  uploaded: (examId: string, files: number, bytes: number) => string;
  sandbox: string;
  watching: (folders: number, settle: number, poll: boolean) => string;
  stopping: string;
  stopped: string;
};

const EN: WatchWords = {
  loose: '(loose files)',
  ready: (n) => `export complete, ${n} ${n === 1 ? 'study' : 'studies'}.`,
  changed: 'export changed after it was complete; checking its studies again.',
  waiting: (r) => `not complete yet: ${r}.`,
  cutShort: 'file(s) cut short',
  unreadable: 'file(s) not readable (still open?)',
  missingFromDicomdir: 'image(s) missing from what the DICOMDIR lists',
  changedWhileChecking: 'change(s) while checking',
  andMore: (n) => ` and ${n} more`,
  resumesWithRoom: 'It goes on by itself once there is room.',
  uploading: (modality, type, files, bytes) =>
    `uploading a ${modality || 'DICOM'} study as ${type} (${files} files, ${formatBytes(bytes, 'en')})…`,
  alreadyUploaded: (id, elsewhere) =>
    `already uploaded as exam ${id}${elsewhere ? ' (recorded in the export folder)' : ''}; no second exam is made.`,
  held: (by) => `another computer is uploading this study (${by}); waiting for it.`,
  unclaimable: (reason) => `${reason}; uploading without coordinating with other computers.`,
  failed: (m) => `could not be checked or queued: ${m} (tried again when the export changes or on the next start).`,
  uploaded: (id, files, bytes) => `uploaded as exam ${id} (${files} files, ${formatBytes(bytes, 'en')}).`,
  sandbox: 'Using a SANDBOX key: uploaded exams are test data.',
  watching: (n, settle, poll) =>
    `Watching ${n} ${n === 1 ? 'folder' : 'folders'} (settle ${settle} s${poll ? ', polling' : ''}). Press Ctrl+C to stop.`,
  stopping: 'Stopping…',
  stopped: 'Stopped.',
};

const ES: WatchWords = {
  loose: '(archivos sueltos)',
  ready: (n) => `exportación completa, ${n} ${n === 1 ? 'estudio' : 'estudios'}.`,
  changed: 'la exportación cambió después de estar completa; se revisan sus estudios de nuevo.',
  waiting: (r) => `aún no está completa: ${r}.`,
  cutShort: 'archivo(s) incompletos',
  unreadable: 'archivo(s) que no se pueden leer (¿aún abiertos?)',
  missingFromDicomdir: 'imagen(es) que faltan respecto del DICOMDIR',
  changedWhileChecking: 'cambio(s) durante la revisión',
  andMore: (n) => ` y ${n} más`,
  resumesWithRoom: 'Se retoma sola cuando haya espacio.',
  uploading: (modality, type, files, bytes) =>
    `subiendo un estudio ${modality || 'DICOM'} como ${type} (${files} archivos, ${formatBytes(bytes, 'es')})…`,
  alreadyUploaded: (id, elsewhere) =>
    `ya se subió como el examen ${id}${elsewhere ? ' (registrado en la carpeta de exportación)' : ''}; no se crea un segundo examen.`,
  held: (by) => `otro equipo está subiendo este estudio (${by}); se espera a que termine.`,
  unclaimable: (reason) => `${reason}; se sube sin coordinarse con otros equipos.`,
  failed: (m) =>
    `no se pudo revisar ni poner en cola: ${m} (se reintenta cuando cambie la exportación o en el próximo inicio).`,
  uploaded: (id, files, bytes) => `subido como el examen ${id} (${files} archivos, ${formatBytes(bytes, 'es')}).`,
  sandbox: 'Se usa una clave de PRUEBA (sandbox): los exámenes subidos son datos de prueba.',
  watching: (n, settle, poll) =>
    `Vigilando ${n} ${n === 1 ? 'carpeta' : 'carpetas'} (espera ${settle} s${poll ? ', por sondeo' : ''}). Pulse Ctrl+C para detener.`,
  stopping: 'Deteniendo…',
  stopped: 'Detenido.',
};

export function watchWords(lang: WordsLanguage): WatchWords {
  return lang === 'es' ? ES : EN;
}
