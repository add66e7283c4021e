// The last lines the agent logged, kept in memory for the support bundle (the log itself goes to
// stderr / the app's log). Lines are kept as written; they are redacted when a bundle is made.

/** The agent's logger, by shape (diagnose sits below the agent). */
export type Logger = { info(message: string): void; warn(message: string): void; error(message: string): void };

export class LogTail {
  private readonly lines: string[] = [];

  constructor(private readonly max = 200) {}

  /** A logger that writes to `inner` and keeps the line. */
  wrap(inner: Logger): Logger {
    const keep =
      (level: 'info' | 'warn' | 'error') =>
      (message: string): void => {
        this.lines.push(`${new Date().toISOString()} ${level}: ${message}`);
        if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
        inner[level](message);
      };
    return { info: keep('info'), warn: keep('warn'), error: keep('error') };
  }

  /** The last `n` lines, oldest first. */
  last(n = 50): string[] {
    return this.lines.slice(-n);
  }
}
