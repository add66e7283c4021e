// `scanbridge handout <exam_id> --out <file.pdf> [--lang es|en]` (CONTRACTS.md §2): the patient's
// printed sheet for one exam. The paper size is the one in Settings; the language is --lang, else
// the app's language, else the system's. The last stdout line is {"file":…,"pages":N}.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ApiError, isApiError } from '../api/http';
import { escapeForTerminal } from '../dicom';
import { readHandoutData, HandoutUnavailableError } from '../handout/handout-data';
import { renderHandout } from '../handout/handout-pdf';
import { type Language, LANGUAGES } from '../../../preload/contract';
import { openSettingsStore } from '../settings/store';
import { apiErrorText } from './words/error-words';
import { terminalLanguage } from '../net/failure-words';
import { errorCode } from '../log';
import { withCommandLog } from './session/command-log';
import { type KeychainDeps, openSession } from './session/command-session';
import { type CliCommand, type CliIo, parseCommandLine, UsageError } from './session/io';
import { t } from '../i18n';

/** The app's language when set, else the system's (LANG / LC_ALL), else English. */
export function defaultSheetLanguage(setting: string, env: NodeJS.ProcessEnv): Language {
  if (setting === 'es' || setting === 'en') return setting;
  const sys = (env['LC_ALL'] || env['LC_MESSAGES'] || env['LANG'] || '').toLowerCase();
  return sys.startsWith('es') ? 'es' : 'en';
}

export function createHandoutCommand(deps: KeychainDeps): CliCommand {
  return async (io: CliIo) => {
    const { values, positionals } = parseCommandLine(
      io.argv,
      { out: { type: 'string' }, lang: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      true,
    );
    if (values.help) {
      io.stdout(t(terminalLanguage(io.env), 'cli.help.handout'));
      return 0;
    }
    const examId = positionals[0];
    if (positionals.length !== 1 || !examId) throw UsageError.of('cli.usageError.oneExamId');
    const out = values.out;
    if (!out) throw UsageError.of('cli.usageError.outPdf');
    if (values.lang !== undefined && !LANGUAGES.includes(values.lang as Language))
      throw UsageError.of('cli.usageError.lang', { langs: LANGUAGES.join(', ') });
    return withCommandLog(io, 'handout', async (log) => {
      const settings = openSettingsStore({ env: io.env }).get();
      const language = (values.lang as Language | undefined) ?? defaultSheetLanguage(settings.language, io.env);
      const session = await openSession(io, 'handout', [], deps);
      if ('exit' in session) return session.exit;
      const lang = terminalLanguage(io.env);
      const fail = (message: string): number => {
        io.stderr(`scanbridge handout: ${escapeForTerminal(message)}\n`);
        return 1;
      };
      let data;
      try {
        data = await readHandoutData(session.client, examId, io.signal);
      } catch (err) {
        log.warn('handout: the exam could not be read', { exam_id: examId, code: errorCode(err) });
        if (err instanceof HandoutUnavailableError)
          return fail(
            t(lang, err.code === 'not_ready' ? 'cli.handout.notReady' : 'cli.handout.noPublicPage', { examId }),
          );
        if (isApiError(err, 'not_found')) return fail(t(lang, 'cli.handout.notFound', { examId }));
        if (err instanceof ApiError) return fail(apiErrorText(err, lang));
        throw err;
      }
      const sheet = await renderHandout(data, { language, paper: settings.handout.paper });
      const file = resolve(out);
      try {
        await writeFile(file, sheet.bytes);
      } catch (err) {
        return fail(
          t(lang, 'cli.handout.cannotWrite', { file, reason: (err as NodeJS.ErrnoException).code ?? String(err) }),
        );
      }
      log.info('handout written', { exam_id: examId, count: sheet.pages, bytes: sheet.bytes.length });
      io.stdout(`${JSON.stringify({ file, pages: sheet.pages })}\n`);
      return 0;
    });
  };
}
