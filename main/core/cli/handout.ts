// `scanbridge handout <exam_id> --out <file.pdf> [--lang es|en]` (CONTRACTS.md §2): the patient's
// printed sheet for one exam. The paper size is the one in Settings; the language is --lang, else
// the app's language, else the system's. The last stdout line is {"file":…,"pages":N}.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ApiError, isApiError } from '../api/http';
import { escapeForTerminal } from '../dicom';
import { readHandoutData, HandoutUnavailableError } from '../handout/handout-data';
import { renderHandout } from '../handout/handout-pdf';
import { SHEET_LANGUAGES, type SheetLanguage } from '../handout/sheet-texts';
import { openSettingsStore } from '../settings/store';
import { apiErrorText } from './words/cli-messages';
import { terminalLanguage } from '../net/failure-words';
import { errorCode } from '../log';
import { withCommandLog } from './session/command-log';
import { type KeychainDeps, openSession } from './session/command-session';
import { type CliCommand, type CliIo, parseCommandLine, UsageError } from './session/io';
import { handoutWords } from './words/serve-words';

const HELP = `Usage: scanbridge handout <exam_id> --out <file.pdf> [--lang es|en]

Writes the patient's sheet of a ready exam as a PDF: the clinic, the patient and the exam, the
clinic's public page address and access PIN with a QR code of that address, the viewer link and
its password, and how to open them. Paper size (A4 or A5) comes from the settings.
`;

/** HELP in Spanish, for a Spanish terminal (terminalLanguage). */
const HELP_ES = `Uso: scanbridge handout <id_examen> --out <archivo.pdf> [--lang es|en]

Escribe como PDF la hoja para el paciente de un examen listo: la clínica, el paciente y el examen,
la dirección de la página pública de la clínica y el PIN de acceso con un código QR de esa
dirección, el enlace al visor y su contraseña, y cómo abrirlos. El tamaño del papel (A4 o A5)
se toma de los ajustes.
`;

/** The app's language when set, else the system's (LANG / LC_ALL), else English. */
export function defaultSheetLanguage(setting: string, env: NodeJS.ProcessEnv): SheetLanguage {
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
      io.stdout(terminalLanguage(io.env) === 'es' ? HELP_ES : HELP);
      return 0;
    }
    const examId = positionals[0];
    if (positionals.length !== 1 || !examId)
      throw new UsageError('give exactly one exam id; see --help', 'indique exactamente un id de examen; vea --help');
    const out = values.out;
    if (!out) throw new UsageError('--out <file.pdf> is required', 'falta --out <archivo.pdf>');
    if (values.lang !== undefined && !SHEET_LANGUAGES.includes(values.lang as SheetLanguage))
      throw new UsageError(
        `--lang must be one of ${SHEET_LANGUAGES.join(', ')}`,
        `--lang debe ser uno de estos: ${SHEET_LANGUAGES.join(', ')}`,
      );
    return withCommandLog(io, 'handout', async (log) => {
      const settings = openSettingsStore({ env: io.env }).get();
      const language = (values.lang as SheetLanguage | undefined) ?? defaultSheetLanguage(settings.language, io.env);
      const session = await openSession(io, 'handout', [], deps);
      if ('exit' in session) return session.exit;
      const words = handoutWords(terminalLanguage(io.env));
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
          return fail(err.code === 'not_ready' ? words.notReady(examId) : words.noPublicPage(examId));
        if (isApiError(err, 'not_found')) return fail(words.notFound(examId));
        if (err instanceof ApiError) return fail(apiErrorText(err, terminalLanguage(io.env)));
        throw err;
      }
      const sheet = await renderHandout(data, { language, paper: settings.handout.paper });
      const file = resolve(out);
      try {
        await writeFile(file, sheet.bytes);
      } catch (err) {
        return fail(words.cannotWrite(file, (err as NodeJS.ErrnoException).code ?? String(err)));
      }
      log.info('handout written', { exam_id: examId, count: sheet.pages, bytes: sheet.bytes.length });
      io.stdout(`${JSON.stringify({ file, pages: sheet.pages })}\n`);
      return 0;
    });
  };
}
