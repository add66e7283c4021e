// The words `scanbridge receive` prints, in the terminal's language (terminalLanguage). Lines name
// the sender's AE title and address, exam ids and counts; never patient data.
import type { WordsLanguage } from '../../net/failure-words';
import { formatBytes } from '../../upload/plan';

export type ReceiveWords = {
  association: (callingAet: string, address: string, outcome: 'released' | 'aborted', objects: number) => string;
  listenerProblem: (message: string) => string;
  notStarted: string;
  listening: (port: number, aet: string) => string;
  queued: (files: number, bytes: number, examType: string) => string;
  alreadyUploaded: (examId: string) => string;
  uploaded: (examId: string, files: number, bytes: number) => string;
  stopping: string;
  stopped: string;
};

const EN: ReceiveWords = {
  association: (aet, address, outcome, n) => `${aet} at ${address}: association ${outcome} after ${n} object(s).`,
  listenerProblem: (m) => `dicom listener: ${m}`,
  notStarted: 'the listener did not start',
  listening: (port, aet) => `Listening on port ${port} as AE title ${aet}. Press Ctrl+C to stop.`,
  queued: (files, bytes, type) =>
    `received study complete: uploading ${files} file(s) (${formatBytes(bytes, 'en')}) as ${type}…`,
  alreadyUploaded: (id) => `received study already uploaded as exam ${id}; no second exam.`,
  uploaded: (id, files, bytes) => `uploaded as exam ${id} (${files} files, ${formatBytes(bytes, 'en')}).`,
  stopping: 'Stopping…',
  stopped: 'Stopped.',
};

const ES: ReceiveWords = {
  association: (aet, address, outcome, n) =>
    `${aet} en ${address}: asociación ${outcome === 'released' ? 'terminada' : 'interrumpida'} tras ${n} objeto(s).`,
  listenerProblem: (m) => `receptor DICOM: ${m}`,
  notStarted: 'el receptor no se pudo iniciar',
  listening: (port, aet) => `Escuchando en el puerto ${port} con el título AE ${aet}. Pulse Ctrl+C para detener.`,
  queued: (files, bytes, type) =>
    `estudio recibido completo: subiendo ${files} archivo(s) (${formatBytes(bytes, 'es')}) como ${type}…`,
  alreadyUploaded: (id) => `el estudio recibido ya se subió como el examen ${id}; no se crea un segundo examen.`,
  uploaded: (id, files, bytes) => `subido como el examen ${id} (${files} archivos, ${formatBytes(bytes, 'es')}).`,
  stopping: 'Deteniendo…',
  stopped: 'Detenido.',
};

export function receiveWords(lang: WordsLanguage): ReceiveWords {
  return lang === 'es' ? ES : EN;
}
