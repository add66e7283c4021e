// The words `scanbridge serve` and `scanbridge handout` print on stderr, in the terminal's language
// (terminalLanguage). They name folders, ports and exam ids; never patient data.
import type { WordsLanguage } from '../../net/failure-words';

export type ServeWords = {
  noWindow: (dir: string) => string;
  cannotListen: (port: number, reason: string) => string;
};

export type HandoutWords = {
  notReady: (examId: string) => string;
  noPublicPage: (examId: string) => string;
  notFound: (examId: string) => string;
  cannotWrite: (file: string, reason: string) => string;
};

const SERVE_EN: ServeWords = {
  noWindow: (dir) => `no built window in ${dir}: run \`npm run build\` first (the contract is served anyway)`,
  cannotListen: (port, reason) => `cannot listen on port ${port}: ${reason}`,
};

const SERVE_ES: ServeWords = {
  noWindow: (dir) =>
    `no hay una ventana compilada en ${dir}: ejecute \`npm run build\` primero (el contrato se sirve de todos modos)`,
  cannotListen: (port, reason) => `no se puede escuchar en el puerto ${port}: ${reason}`,
};

const HANDOUT_EN: HandoutWords = {
  notReady: (id) => `cannot make the sheet of exam ${id}: the exam is not ready yet`,
  noPublicPage: (id) =>
    `cannot make the sheet of exam ${id}: the service gave no public page address or PIN for this exam`,
  notFound: (id) => `exam ${id} was not found on this account`,
  cannotWrite: (file, reason) => `cannot write ${file}: ${reason}`,
};

const HANDOUT_ES: HandoutWords = {
  notReady: (id) => `no se puede hacer la hoja del examen ${id}: el examen aún no está listo`,
  noPublicPage: (id) =>
    `no se puede hacer la hoja del examen ${id}: el servicio no entregó la dirección de la página pública ni el PIN de este examen`,
  notFound: (id) => `el examen ${id} no se encontró en esta cuenta`,
  cannotWrite: (file, reason) => `no se puede escribir ${file}: ${reason}`,
};

export function serveWords(lang: WordsLanguage): ServeWords {
  return lang === 'es' ? SERVE_ES : SERVE_EN;
}

export function handoutWords(lang: WordsLanguage): HandoutWords {
  return lang === 'es' ? HANDOUT_ES : HANDOUT_EN;
}
