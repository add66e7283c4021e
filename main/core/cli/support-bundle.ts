// `scanbridge support-bundle --out <file.zip> [--days <n>]` (CONTRACTS.md §3): the ZIP a clinic
// attaches to a support ticket — the last days of the log, the connection check as `doctor --json`
// gives it, the upload lists of the app, `watch` and `receive`, and the settings summary, all
// redacted the same way (diagnose/support-bundle.ts). Its last stdout line is
// {"file":"…","bytes":B,"entries":N}.
import { writeFile } from 'node:fs/promises';
import { arch, release } from 'node:os';
import { join, resolve } from 'node:path';
import { buildDiagnostics } from '../agent/handlers/diagnostics';
import { readUploadList } from '../agent/queue/upload-list-store';
import { APP_VERSION } from '../api/http';
import { bundleContent, bundleZip } from '../diagnose/support-bundle';
import { logDirOf } from '../log';
import { terminalLanguage } from '../net/failure-words';
import { appDataDir } from '../paths';
import { PRIVATE_FILE_MODE } from '../private-fs';
import { openSettingsStore } from '../settings/store';
import { commandConnectionCheck } from './doctor';
import type { KeychainDeps } from './session/command-session';
import { type CliCommand, type CliIo, parseCommandLine, UsageError } from './session/io';

const HELP = `Usage: scanbridge support-bundle --out <file.zip> [--days <n>]

Writes a ZIP to attach to a support ticket: the last n days of the log (default 7, at most 14),
the connection check (as \`scanbridge doctor --json\` gives it), the upload queue's state and the
settings without keys. Patient names and IDs, keys, e-mail addresses and logins are removed from
every file. The last line on stdout is {"file":"…","bytes":B,"entries":N}.
`;

/** HELP in Spanish, for a Spanish terminal (terminalLanguage). */
const HELP_ES = `Uso: scanbridge support-bundle --out <archivo.zip> [--days <n>]

Escribe un ZIP para adjuntar a un ticket de soporte: los últimos n días del registro (por omisión
7, como máximo 14), la revisión de la conexión (tal como la da \`scanbridge doctor --json\`), el
estado de la cola de subidas y los ajustes sin claves. Se quitan de cada archivo los nombres e
identificadores de pacientes, las claves, los correos electrónicos y los usuarios. La última
línea en stdout es {"file":"…","bytes":B,"entries":N}.
`;

/** The upload lists of the app, `scanbridge watch` and `scanbridge receive` (each agent keeps its own). */
const UPLOAD_LISTS = [['agent'], ['watch', 'agent'], ['receive', 'agent']].map((p) => join(...p, 'uploads.json'));

function parse(argv: string[]): { out: string | null; days: number; help: boolean } {
  const { values } = parseCommandLine(
    argv,
    { out: { type: 'string' }, days: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    false,
  );
  if (values.help) return { out: null, days: 7, help: true };
  if (!values.out) throw new UsageError('--out <file.zip> is required', 'falta --out <archivo.zip>');
  const days = values.days === undefined ? 7 : Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 14)
    throw new UsageError('--days must be a whole number from 1 to 14', '--days debe ser un número entero entre 1 y 14');
  return { out: resolve(values.out), days, help: false };
}

export function createSupportBundleCommand(deps: KeychainDeps): CliCommand {
  return async (io: CliIo) => {
    const args = parse(io.argv);
    if (args.help || !args.out) {
      io.stdout(terminalLanguage(io.env) === 'es' ? HELP_ES : HELP);
      return 0;
    }
    const dataDir = appDataDir(io.env);
    const settings = openSettingsStore({ env: io.env }).get();
    const checked = await commandConnectionCheck(io, 'support-bundle', deps, settings);
    const jobs = (await Promise.all(UPLOAD_LISTS.map((f) => readUploadList(join(dataDir, f)))))
      .flat()
      .map((r) => r.view);
    const apiKey = 'report' in checked ? checked.apiKey : null;
    const diagnostics = buildDiagnostics({
      appVersion: APP_VERSION,
      os: { platform: process.platform, release: release(), arch: arch() },
      nodeVersion: process.versions.node,
      transport: 'cli',
      settings,
      activeKey: apiKey === null ? null : apiKey.startsWith('cbct_test_') ? 'sandbox' : 'live',
      jobs,
    });
    const now = new Date();
    const content = bundleContent({
      diagnostics,
      check: 'report' in checked ? checked.report : { problem: checked.problem },
      jobs,
      logDir: logDirOf(dataDir),
      days: args.days,
      known: jobs.map((j) => j.patient_name),
      now,
    });
    const zip = await bundleZip(content, now);
    try {
      await writeFile(args.out, zip, { mode: PRIVATE_FILE_MODE });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      const words = terminalLanguage(io.env) === 'es' ? 'no se puede escribir' : 'cannot write';
      io.stderr(`scanbridge support-bundle: ${words} ${args.out}: ${code}\n`);
      return 1;
    }
    io.stdout(`${JSON.stringify({ file: args.out, bytes: zip.length, entries: content.entries.length })}\n`);
    return 0;
  };
}
