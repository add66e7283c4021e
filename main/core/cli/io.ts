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
