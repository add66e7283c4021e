// cli/session: what every command stands on. The command's streams and usage errors (io.ts), the
// command log, the network settings and the service session a command opens, and the console's
// signals. Below the commands (cli/*.ts), above the words (cli/words/).
export { UsageError } from './io';
export type { CliCommand, CliIo } from './io';
export { keepSelfSignalsCatchable, stopSignals } from './console-signals';
