// Words for the connection check's problems that are not network failures (the key, the account,
// storage), in Spanish and English, for the command line. The window has the same texts in its
// locale files (`network.problem.*`).
import { netFailureWords } from '../net/failure-words';
import type { Language } from '../i18n';
import { NET_FAILURE_KINDS, type NetFailureKind } from '../net/net-failure';
import type { CheckProblem, CheckReport, CheckStep } from './check-report';

type Own = Exclude<CheckProblem, NetFailureKind>;

const EN: Record<Own, (host: string) => string> = {
  key_rejected: () => "The API key was rejected or is missing. Paste the clinic's key again in Settings.",
  key_not_allowed: () =>
    'The API key works but may not create exams. Ask the account holder for a key with exams:write.',
  exam_limit: () => "The account's exam or storage limit is reached, so the check could not make its test exam.",
  service_error: (host) => `The service at ${host} answered with an error. Try again in a few minutes.`,
  storage_refused: (host) =>
    `Storage at ${host} refused the test upload. If a proxy or firewall limits uploads, ask IT to allow it.`,
  not_configured: () => 'No service address is configured. Set it in Settings (or SCANBRIDGE_API_URL).',
};

const ES: Record<Own, (host: string) => string> = {
  key_rejected: () => 'La clave de API fue rechazada o falta. Vuelva a pegar la clave de la clínica en Ajustes.',
  key_not_allowed: () =>
    'La clave de API funciona pero no puede crear exámenes. Pida al titular de la cuenta una clave con exams:write.',
  exam_limit: () =>
    'La cuenta llegó a su límite de exámenes o de almacenamiento: la prueba no pudo crear su examen de prueba.',
  service_error: (host) => `El servicio en ${host} respondió con un error. Vuelva a intentar en unos minutos.`,
  storage_refused: (host) =>
    `El almacenamiento en ${host} rechazó la subida de prueba. Si un proxy o cortafuegos limita las subidas, pida a TI que la permita.`,
  not_configured: () => 'No hay dirección del servicio configurada. Indíquela en Ajustes (o en SCANBRIDGE_API_URL).',
};

/** The sentence for one of the check's own problems (network failures are worded by net/). */
export function checkProblemWords(
  problem: CheckProblem,
  host: string,
  _proxy: string | null,
  lang: Language = 'en',
): string {
  const table = lang === 'es' ? ES : EN;
  return problem in table ? table[problem as Own](host) : table.service_error(host);
}

/** The words for a failed step of `report`, in `lang`. */
export function reportStepWords(report: CheckReport, step: CheckStep, lang: Language): string {
  const r = report[step];
  if (r.status !== 'failed' || !r.problem) return '';
  const host =
    (step === 'storage' ? report.storage.host : null) ?? (report.api_url ? new URL(report.api_url).host : '');
  if ((NET_FAILURE_KINDS as readonly string[]).includes(r.problem))
    return netFailureWords(
      { kind: r.problem as NetFailureKind, code: r.code ?? '', host, proxy: report.proxy.url },
      lang,
    );
  return checkProblemWords(r.problem, host, report.proxy.url, lang);
}
