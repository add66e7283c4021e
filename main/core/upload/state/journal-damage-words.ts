// What a rerun says after it found its upload journal damaged (issue: journals that cannot lie):
// what was found, then what it did about it, in either language. The engine says it in English
// and hands the same facts on as the notice's params, so a front end says it in its own language.
import type { WordsLanguage } from '../../net/failure-words';
import type { JournalDamage } from '../journal/journal';
import type { NoticeParams } from './engine-types';

/** The facts of one damaged journal, as a notice's params (a path, line numbers, exam ids). */
export function journalDamageFacts(damage: JournalDamage | null, path: string): NoticeParams {
  if (!damage) return { damage: 'moved' };
  if (damage.empty) return { damage: 'empty', path };
  const lines = damage.lines.slice(0, 5).join(', ') + (damage.lines.length > 5 ? ', …' : '');
  return { damage: 'lines', path, lines, total: damage.total };
}

function found(p: NoticeParams, lang: WordsLanguage): string {
  const path = String(p['path'] ?? '');
  if (p['damage'] === 'empty')
    return lang === 'es'
      ? `El registro de subida ${path} estaba vacío o ilegible.`
      : `The upload journal ${path} was found empty or unreadable.`;
  if (p['damage'] === 'lines')
    return lang === 'es'
      ? `El registro de subida ${path} estaba dañado (línea ${p['lines']} de ${p['total']} ilegible).`
      : `The upload journal ${path} was found damaged (line ${p['lines']} of ${p['total']} unreadable).`;
  return lang === 'es'
    ? 'Se encontró dañado un registro de subida anterior de esta carpeta (apartado como .damaged).'
    : 'An earlier upload journal of this folder was found damaged (moved aside as .damaged).';
}

function did(p: NoticeParams, lang: WordsLanguage): string {
  const ready = p['ready_exam'];
  if (typeof ready === 'string' && ready)
    return lang === 'es'
      ? `El servicio ya tiene el examen ${ready} de este estudio, listo: ese es el resultado y no se crea un segundo examen.`
      : `The service already holds exam ${ready} of this study, ready: it is the result, and no second exam is made.`;
  const removed = p['removed'];
  const kept = p['kept'];
  const removedWords =
    typeof removed === 'string' && removed
      ? lang === 'es'
        ? `Se eliminaron los exámenes a medias ${removed} que dejó en el servicio.`
        : `Removed the half-made exam(s) ${removed} it left on the service.`
      : lang === 'es'
        ? 'No se encontró ningún examen suyo en el servicio.'
        : 'No exam of it was found on the service.';
  const next =
    typeof kept === 'string' && kept
      ? lang === 'es'
        ? `Se continúa con el examen ${kept}.`
        : `Going on with exam ${kept}.`
      : lang === 'es'
        ? 'El estudio se sube de nuevo desde el principio.'
        : 'Uploading the study afresh.';
  return `${removedWords} ${next}`;
}

/** The whole notice: what was found and what was done. */
export function journalDamageWords(p: NoticeParams, lang: WordsLanguage): string {
  return `${found(p, lang)} ${did(p, lang)}`;
}
