// `scanbridge support-bundle --out <file.zip> [--days <n>]` (CONTRACTS.md §3): the ZIP a clinic
// attaches to a support ticket — the last days of the log, the connection check as `doctor --json`
// gives it, the upload lists of the app, `watch` and `receive`, and the settings summary, all
// redacted the same way (diagnose/support-bundle.ts). Its last stdout line is
// {"file":"…","bytes":B,"entries":N}.
import { t } from '../i18n';
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

/** The upload lists of the app, `scanbridge watch` and `scanbridge receive` (each agent keeps its own). */
const UPLOAD_LISTS = [['agent'], ['watch', 'agent'], ['receive', 'agent']].map((p) => join(...p, 'uploads.json'));

function parse(argv: string[]): { out: string | null; days: number; help: boolean } {
  const { values } = parseCommandLine(
    argv,
    { out: { type: 'string' }, days: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    false,
  );
  if (values.help) return { out: null, days: 7, help: true };
  if (!values.out) throw UsageError.of('cli.usageError.outZip');
  const days = values.days === undefined ? 7 : Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 14) throw UsageError.of('cli.usageError.days');
  return { out: resolve(values.out), days, help: false };
}

export function createSupportBundleCommand(deps: KeychainDeps): CliCommand {
  return async (io: CliIo) => {
    const args = parse(io.argv);
    if (args.help || !args.out) {
      io.stdout(t(terminalLanguage(io.env), 'cli.help.support_bundle'));
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
      const words = t(terminalLanguage(io.env), 'cli.cannotWrite', { file: args.out, code });
      io.stderr(`scanbridge support-bundle: ${words}\n`);
      return 1;
    }
    io.stdout(`${JSON.stringify({ file: args.out, bytes: zip.length, entries: content.entries.length })}\n`);
    return 0;
  };
}
