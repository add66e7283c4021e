import { parseArgs, type ParseArgsConfig } from 'node:util';

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

/** Thrown for bad command-line usage; the CLI prints the message and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
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
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}
