// An engine notice in words, from its code and facts (the catalogue's `core.notice.*`): the engine
// writes the English into the notice's message, and a front end says the same facts in its own
// language. No patient data: exam ids, counts, seconds and status codes.
import { t, type Language } from '../../i18n';
import { clockSkewWords } from '../../net/clock-words';
import type { NoticeCode, NoticeParams } from './engine-types';
import { journalDamageWords } from './journal-damage-words';

/** The notice `code` with facts `p`, in `lang` (null when its facts are not enough to say it). */
export function noticeWords(code: NoticeCode, p: NoticeParams, lang: Language): string | null {
  switch (code) {
    case 'resumed': {
      if (typeof p['compressed'] === 'number')
        return t(lang, 'core.notice.resumedCompression', { compressed: p['compressed'], total: String(p['total']) });
      const examId = p['exam_id'];
      const ofExam = examId ? t(lang, 'core.notice.ofExam', { examId: String(examId) }) : '';
      const done =
        p['mode'] === 'zip'
          ? t(lang, 'core.notice.zipAgain')
          : t(lang, 'core.notice.filesStored', { stored: String(p['stored']), total: String(p['total']) });
      return t(lang, 'core.notice.resumed', { ofExam, done });
    }
    case 'orphan_removed':
      return t(lang, p['this_run'] ? 'core.notice.orphanThisRun' : 'core.notice.orphanEarlier', {
        examId: String(p['exam_id']),
      });
    case 'exam_recreated':
      return t(lang, p['why'] === 'over_budget' ? 'core.notice.recreatedOverBudget' : 'core.notice.recreatedExpired');
    case 'rate_limited':
      return t(lang, 'core.notice.rateLimited', { seconds: String(p['seconds']) });
    case 'api_retry':
      return t(lang, 'core.notice.apiRetry', { code: String(p['code']) });
    case 'files_missing':
      return t(lang, 'core.notice.filesMissing', { n: String(p['count']) });
    case 'clock_skew':
      return typeof p['skew_ms'] === 'number' ? clockSkewWords(p['skew_ms'], lang) : null;
    case 'journal_damaged':
      return journalDamageWords(p, lang);
  }
}
