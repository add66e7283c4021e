// What a rerun says after it found its upload journal damaged (issue: journals that cannot lie):
// what was found, then what it did about it, in either language. The engine says it in English
// and hands the same facts on as the notice's params, so a front end says it in its own language.
import { t, type Language } from '../../i18n';
import type { JournalDamage } from '../journal/journal';
import type { NoticeParams } from './engine-types';

/** The facts of one damaged journal, as a notice's params (a path, line numbers, exam ids). */
export function journalDamageFacts(damage: JournalDamage | null, path: string): NoticeParams {
  if (!damage) return { damage: 'moved' };
  if (damage.empty) return { damage: 'empty', path };
  const lines = damage.lines.slice(0, 5).join(', ') + (damage.lines.length > 5 ? ', …' : '');
  return { damage: 'lines', path, lines, total: damage.total };
}

function found(p: NoticeParams, lang: Language): string {
  const path = String(p['path'] ?? '');
  const damage = p['damage'] === 'empty' || p['damage'] === 'lines' ? p['damage'] : 'moved';
  return t(lang, `core.journalDamage.found.${damage}`, { path, lines: String(p['lines']), total: String(p['total']) });
}

function did(p: NoticeParams, lang: Language): string {
  const ready = p['ready_exam'];
  if (typeof ready === 'string' && ready) return t(lang, 'core.journalDamage.readyExam', { exam: ready });
  const removed = p['removed'];
  const kept = p['kept'];
  const removedWords =
    typeof removed === 'string' && removed
      ? t(lang, 'core.journalDamage.removed', { exams: removed })
      : t(lang, 'core.journalDamage.noneFound');
  const next =
    typeof kept === 'string' && kept
      ? t(lang, 'core.journalDamage.goingOn', { exam: kept })
      : t(lang, 'core.journalDamage.afresh');
  return `${removedWords} ${next}`;
}

/** The whole notice: what was found and what was done. */
export function journalDamageWords(p: NoticeParams, lang: Language): string {
  return `${found(p, lang)} ${did(p, lang)}`;
}
