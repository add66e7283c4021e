// Pieces every service-facing command shares: checking the folders it was given and turning the
// configured credentials into an API client, with the same plain messages everywhere.
import { opendir, stat } from 'node:fs/promises';
import { type ApiClient, createApiClient } from '../../api/client';
import { escapeForTerminal } from '../../dicom';
import { CredentialsError, resolveCredentials } from '../../credentials';
import { KeychainUnavailableError } from '../../secrets/keychain-errors';
import type { SecretStore } from '../../secrets/secret-store';
import { openSettingsStore } from '../../settings/store';
import { openCommandNetwork } from './command-network';
import type { CliIo } from './io';
import { credentialsText, folderProblemText, keychainText } from '../words/error-words';
import { terminalLanguage } from '../../net/failure-words';
import type { Language } from '../../i18n';

/** What a command needs from its caller: the OS keychain, built outside the core (native module). */
export type KeychainDeps = {
  secretStore: () => SecretStore | Promise<SecretStore>;
};

/** Why `path` cannot be used as a folder (in `lang`), or null when it is one. */
export async function folderProblem(path: string, lang: Language = 'en'): Promise<string | null> {
  const isDir = await stat(path).then(
    (s) => s.isDirectory(),
    () => null,
  );
  if (isDir === null) return folderProblemText({ kind: 'not_found', path }, lang);
  if (!isDir) return folderProblemText({ kind: 'not_folder', path }, lang);
  try {
    await opendir(path).then((d) => d.close());
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    return folderProblemText({ kind: 'unreadable', path, code }, lang);
  }
  return null;
}

/**
 * An API client for the configured credentials (environment first, then settings and keychain), or
 * the plain message to print when there are none or the keychain cannot be reached.
 */
export async function clientFromCredentials(
  env: NodeJS.ProcessEnv,
  deps: KeychainDeps,
  lang: Language = 'en',
): Promise<{ client: ApiClient } | { problem: string }> {
  try {
    const creds = await resolveCredentials({
      env,
      settings: () => openSettingsStore({ env }).get(),
      secrets: deps.secretStore,
    });
    return { client: createApiClient({ baseUrl: creds.baseUrl, apiKey: creds.apiKey }) };
  } catch (err) {
    if (err instanceof CredentialsError) return { problem: credentialsText(err, lang) };
    if (err instanceof KeychainUnavailableError) return { problem: keychainText(err, lang) };
    throw err;
  }
}

/**
 * The start every command that talks to the service shares: its folders checked, then a client for
 * the configured key — or, once the problem is printed, the exit code. Messages quote paths, which
 * come from the disk: they are escaped for the terminal.
 */
export async function openSession(
  io: CliIo,
  command: string,
  dirs: readonly string[],
  deps: KeychainDeps,
): Promise<{ client: ApiClient } | { exit: number }> {
  const fail = (message: string): { exit: number } => {
    io.stderr(`scanbridge ${command}: ${escapeForTerminal(message)}\n`);
    return { exit: 1 };
  };
  for (const dir of dirs) {
    const problem = await folderProblem(dir, terminalLanguage(io.env));
    if (problem) return fail(problem);
  }
  // The command's network: the Settings or environment proxy and the trusted CAs (a CA file that
  // cannot be used is said before anything is sent).
  const net = await openCommandNetwork(io, command, deps.secretStore);
  if ('problem' in net) return fail(net.problem);
  const session = await clientFromCredentials(io.env, deps, terminalLanguage(io.env));
  return 'problem' in session ? fail(session.problem) : session;
}
