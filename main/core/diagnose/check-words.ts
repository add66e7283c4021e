// Words for the connection check's problems that are not network failures (the key, the account,
// storage), from the catalogue (`core.check.*`), for the command line. The window words them with
// its own texts (`network.problem.*`).
import { netFailureWords } from '../net/failure-words';
import { t, type Language } from '../i18n';
import { NET_FAILURE_KINDS, type NetFailureKind } from '../net/net-failure';
import type { ConnectionCheckView, ConnectionProblem, ConnectionStep } from '../../../preload/contract';

type Own = Exclude<ConnectionProblem, NetFailureKind>;

const OWN: readonly Own[] = [
  'key_rejected',
  'key_not_allowed',
  'exam_limit',
  'service_error',
  'storage_refused',
  'not_configured',
];

/** The sentence for one of the check's own problems (network failures are worded by net/). */
export function checkProblemWords(
  problem: ConnectionProblem,
  host: string,
  _proxy: string | null,
  lang: Language = 'en',
): string {
  const own = OWN.find((p) => p === problem) ?? 'service_error';
  return t(lang, `core.check.${own}`, { host });
}

/** The words for a failed step of `report`, in `lang`. */
export function reportStepWords(report: ConnectionCheckView, step: ConnectionStep, lang: Language): string {
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
