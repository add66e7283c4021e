import { parseArgs, type ParseArgsConfig } from 'node:util';
import { t, type Language, type TextKey, type TextValues } from '../../i18n';

/** What a CLI command may touch: its arguments, its output streams and its environment. */
export type CliIo = {
  argv: string[];
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Fires when the user interrupts (Ctrl+C / SIGTERM). */
  signal: AbortSignal;
};

/** A command returns its exit code. */
export type CliCommand = (io: CliIo) => Promise<number>;

/**
 * Thrown for bad command-line usage; the CLI prints it in the terminal's language and exits 2. The
 * message is the English text; `es` the Spanish one.
 */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly es: string,
  ) {
    super(message);
  }

  /** The text in `lang`. */
  words(lang: Language): string {
    return lang === 'es' ? this.es : this.message;
  }

  /** A usage error worded by the catalogue (`cli.usageError.*`), in both languages. */
  static of(key: TextKey, values?: TextValues): UsageError {
    return new UsageError(t('en', key, values), t('es', key, values));
  }
}

/** node:util parseArgs's refusal in Spanish, by its error code (the option it names kept as typed). */
function parseErrorEs(err: unknown): string | null {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : '';
  const named = /'([^']*)'/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `opción desconocida '${named}'`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `argumento inesperado '${named}': este comando no recibe argumentos sueltos`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/argument missing/.test(message)) return `falta el valor de la opción '${named}'`;
    if (/does not take an argument/.test(message)) return `la opción '${named}' no lleva valor`;
    return `valor no válido para la opción '${named}'`;
  }
  return null;
}

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Parses a command line strictly: an unknown option, or a value missing, is a UsageError (exit 2). */
export function parseCommandLine<const O extends OptionsConfig, const P extends boolean>(
  argv: string[],
  options: O,
  allowPositionals: P,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (err) {
    const en = err instanceof Error ? err.message : String(err);
    throw new UsageError(en, parseErrorEs(err) ?? en);
  }
}
