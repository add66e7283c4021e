// ESLint flat config. Lives in .config/ because the project's top level is fixed;
// package.json runs `eslint --config .config/eslint.config.js`, so patterns are relative to the repo root.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import typeOnlyImports from './eslint-rules/type-only-imports.js';
import noImportCycle from './eslint-rules/no-import-cycle.js';

// The layering rules are described in main/ARCHITECTURE.md; each message names its section.
const ARCH = 'main/ARCHITECTURE.md';

/** Packages a folder must not import (by package name). */
const packages = (files, patterns) => ({
  files,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

/** One zone of import-x/no-restricted-paths: files under `target` must not import anything under `from`. */
const zone = (target, from, section, what, except) => ({
  target,
  from,
  ...(except ? { except } : {}),
  message: `${what} (${ARCH} §${section}).`,
});
const core = (...dirs) => dirs.map((d) => `main/core/${d}`);
const room = (...names) => names.map((n) => `main/core/agent/${n}`);
/** The rooms of upload, bottom to top: each imports only the rooms below it. */
const UPLOAD_ROOMS = ['ports', 'transfer', 'plan', 'compression', 'journal', 'state', 'job'];
/** The parts of main/; `outside(dir)` is every part but one, for the entry-point zones. */
const MAIN_PARTS = [
  ...core('agent', 'api', 'bridge', 'cli', 'consent', 'diagnose', 'dicom', 'handout', 'log', 'net'),
  ...core('receive', 'secrets', 'settings', 'upload', 'watch'),
  'main/core/*.ts',
  'main/index.ts',
  'main/cli.ts',
  'main/demo',
  'main/windows',
  'main/ipc',
  'main/adapters',
];
const outside = (dir) => MAIN_PARTS.filter((p) => p !== dir);
/** Zones that let the rest of main/ reach each room of `dir` through its entry point (index.ts) only. */
const throughEntryPoints = (dir, rooms, what) =>
  rooms.map((name) =>
    zone(
      outside(dir),
      `${dir}/${name}`,
      2,
      `Outside ${what}, import ${name}/ through its entry point ('${dir.slice('main/core/'.length)}/${name}'), not its files`,
      ['./index.ts'],
    ),
  );

/** The raw-IPC rule (§5); repeated in blocks that add selectors of their own, since a later block replaces the options. */
const rawIpc = [
  {
    selector: 'ImportSpecifier[imported.name=/^(ipcMain|ipcRenderer)$/]',
    message: `Raw IPC only in main/ipc and preload/index.ts (${ARCH} §5).`,
  },
  {
    selector: "MemberExpression[object.property.name='webContents'][property.name='send']",
    message: `webContents.send only in main/ipc (${ARCH} §5).`,
  },
  {
    selector: "MemberExpression[object.name='webContents'][property.name='send']",
    message: `webContents.send only in main/ipc (${ARCH} §5).`,
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'main/.build/**',
      'renderer/dist/**',
      'test/.artifacts/**',
      'test/.build/**',
      'test/fixtures/.generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Layering by resolved path: however an import is spelled, where it lands decides.
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, scanbridge: { rules: { 'type-only-imports': typeOnlyImports } } },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'main/tsconfig.json',
            'main/tsconfig.core.json',
            'preload/tsconfig.json',
            'renderer/tsconfig.json',
            'test/tsconfig.json',
          ],
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // §1: the core is plain Node.
            zone(
              'main/core',
              ['main/index.ts', 'main/cli.ts', 'main/windows', 'main/ipc', 'main/adapters', 'main/bin'],
              1,
              'main/core imports only main/core and preload/contract',
            ),
            // The catalogue files are shared with the window; only main/core/i18n reads them.
            zone(
              'main/core',
              'renderer',
              1,
              'main/core imports only main/core, preload/contract and (in i18n/) the catalogue',
              ['./locales'],
            ),
            zone(
              core(
                'api',
                'net',
                'diagnose',
                'dicom',
                'upload',
                'watch',
                'receive',
                'consent',
                'handover',
                'agent',
                'bridge',
                'cli',
              ),
              'renderer',
              1,
              'the catalogue files are read through main/core/i18n',
            ),
            zone('main/core', 'preload', 1, 'main/core imports only main/core and preload/contract', ['./contract']),
            // §2: the core's own order.
            zone(
              'main/core/api',
              core('dicom', 'diagnose', 'upload', 'watch', 'receive', 'consent', 'handout', 'agent', 'bridge', 'cli'),
              2,
              'api is the lowest layer of the core: it imports no other part of it',
            ),
            zone(
              'main/core/net',
              core(
                'api',
                'dicom',
                'upload',
                'watch',
                'receive',
                'consent',
                'handout',
                'agent',
                'bridge',
                'cli',
                'diagnose',
              ),
              2,
              'net (proxy, trust, network failures) lies below the api client: it imports no other part of the core',
            ),
            zone(
              'main/core/diagnose',
              core('upload', 'watch', 'receive', 'consent', 'handout', 'agent', 'bridge', 'cli'),
              2,
              'diagnose (connection check, support bundle) sits on api and net, below the agent',
            ),
            zone(
              'main/core/dicom',
              core('api', 'upload', 'watch', 'receive', 'consent', 'handout', 'agent', 'bridge', 'cli'),
              2,
              'dicom is the lowest layer of the core: it imports no other part of it',
            ),
            zone(
              'main/core/upload',
              core('watch', 'receive', 'consent', 'handout', 'agent', 'bridge', 'cli'),
              2,
              'upload sits below the agent and beside watch',
            ),
            zone(
              'main/core/watch',
              core('api', 'upload', 'receive', 'consent', 'handout', 'agent', 'bridge', 'cli'),
              2,
              'watch sits below the agent and beside upload',
            ),
            zone(
              'main/core/receive',
              core('api', 'upload', 'watch', 'consent', 'handout', 'agent', 'bridge', 'cli'),
              2,
              'receive (the DICOM listener) sits below the agent, beside watch and upload',
            ),
            zone(
              'main/core/consent',
              core('upload', 'watch', 'receive', 'handout', 'agent', 'bridge', 'cli'),
              2,
              'consent sits below the agent, beside upload and watch',
            ),
            zone(
              'main/core/handout',
              core('dicom', 'upload', 'watch', 'receive', 'consent', 'agent', 'bridge', 'cli'),
              2,
              "handout (the patient's printed sheet, share-on-ready) sits below the agent, beside upload, and reads only the API",
            ),
            zone('main/core/agent', core('bridge', 'cli'), 2, 'the agent sits below the front ends (bridge, cli)'),
            zone('main/core/bridge', core('cli'), 2, 'the bridge sits below the cli'),
            // §2: the agent's rooms, bottom to top: host; service, queue; background, inbox; pipeline; handlers.
            ...[
              [
                'host',
                ['service', 'background', 'queue', 'inbox', 'pipeline', 'handlers'],
                'host/ imports no other room of the agent',
              ],
              [
                'service',
                ['background', 'queue', 'inbox', 'pipeline', 'handlers'],
                'service/ imports only host/ of the agent',
              ],
              [
                'queue',
                ['service', 'background', 'inbox', 'pipeline', 'handlers'],
                'queue/ imports only host/ of the agent',
              ],
              ['background', ['queue', 'inbox', 'pipeline', 'handlers'], 'background/ imports only host/ and service/'],
              ['inbox', ['service', 'background', 'pipeline', 'handlers'], 'inbox/ imports only host/ and queue/'],
              ['pipeline', ['service', 'background', 'handlers'], 'pipeline/ imports only host/, queue/ and inbox/'],
            ].map(([name, above, what]) => zone(`main/core/agent/${name}`, room(...above), 2, what)),
            // §2: the rooms of upload, bottom to top: ports; transfer; plan; compression; journal; state; job.
            ...UPLOAD_ROOMS.slice(0, -1).map((name, i) =>
              zone(
                `main/core/upload/${name}`,
                UPLOAD_ROOMS.slice(i + 1).map((above) => `main/core/upload/${above}`),
                2,
                i === 0
                  ? 'upload/ports/ imports no other room of upload'
                  : `upload/${name}/ imports only ${UPLOAD_ROOMS.slice(0, i)
                      .map((below) => `${below}/`)
                      .join(', ')} of upload`,
              ),
            ),
            // §2: the rest of main/ reaches a room of upload, the api client or the DICOM reader through its entry point.
            ...throughEntryPoints('main/core/upload', UPLOAD_ROOMS, 'upload'),
            ...throughEntryPoints('main/core/api', ['http', 'endpoints'], 'the api client'),
            ...throughEntryPoints('main/core/dicom', ['header', 'scan'], 'the DICOM reader'),
            // §2: the rooms of the DICOM reader: header/ (one file) below scan/ (a folder).
            zone(
              'main/core/dicom/header',
              'main/core/dicom/scan',
              2,
              'dicom/header/ imports no other part of the DICOM reader',
            ),
            // §2: the rooms of the api client: http/ (the transport), endpoints/ on it, client.ts on top.
            zone(
              'main/core/api/http',
              ['main/core/api/endpoints', 'main/core/api/client.ts', 'main/core/api/index.ts'],
              2,
              'api/http/ imports no other part of the api client',
            ),
            zone(
              'main/core/api/endpoints',
              ['main/core/api/client.ts', 'main/core/api/index.ts'],
              2,
              'api/endpoints/ imports only api/http/ of the api client',
            ),
            // §2: the rooms of the cli, bottom to top: words/; session/; the commands (cli/*.ts).
            zone('main/core/cli/words', 'main/core/cli/session', 2, 'cli/words/ imports no other part of the cli'),
            zone('main/core/cli/words', 'main/core/cli/*.ts', 2, 'cli/words/ imports no other part of the cli'),
            zone('main/core/cli/session', 'main/core/cli/*.ts', 2, 'cli/session/ imports only cli/words/ of the cli'),
            zone(
              ['main/index.ts', 'main/cli.ts', 'main/demo', 'main/windows', 'main/ipc', 'main/adapters'],
              'main/core/cli/session',
              2,
              "Outside the cli, import cli/session/ through its entry point ('cli/session'), not its files",
              ['./index.ts'],
            ),
            zone(
              [
                'main/core/settings',
                'main/core/secrets',
                'main/core/paths.ts',
                'main/core/folder-identity.ts',
                'main/core/credentials.ts',
                'main/core/atomic-file.ts',
                'main/core/private-fs.ts',
                'main/core/tokens.ts',
                'main/core/contract-failure.ts',
                'main/core/poll-task.ts',
                'main/core/emitter.ts',
                'main/core/defined.ts',
                'main/core/format-bytes.ts',
                'main/core/log',
                'main/core/i18n',
              ],
              core('dicom', 'upload', 'watch', 'receive', 'consent', 'handout', 'agent', 'bridge', 'cli'),
              2,
              'settings, secrets, paths and credentials are helpers below every layer',
            ),
            // §3: the window.
            zone(
              'renderer',
              ['main', 'test'],
              3,
              'The renderer imports only renderer/ and types from preload/contract',
            ),
            zone('renderer', 'preload', 3, 'The renderer imports only renderer/ and types from preload/contract', [
              './contract',
            ]),
            zone('preload', ['main', 'renderer', 'test'], 3, 'preload imports only electron and preload/contract'),
            zone(
              'preload/contract',
              ['preload/index.ts', 'preload/patient.ts'],
              3,
              'preload/contract imports nothing else',
            ),
            // §4: tests stay outside.
            zone('main', 'test', 4, 'Nothing in main/ imports test/'),
            zone('test/emulator', ['main', 'preload', 'renderer'], 4, 'test/emulator must not import project code'),
          ],
        },
      ],
    },
  },
  // §6: no import cycle, type imports included (import-x's no-cycle follows value imports only).
  {
    files: ['main/**/*.ts', 'preload/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    plugins: { cycles: { rules: { 'no-import-cycle': noImportCycle } } },
    // import-x reads the modules it walks through only when it knows their extension and parser.
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'cycles/no-import-cycle': ['error', { message: `Modules read in one direction (${ARCH} §6).` }],
    },
  },
  // No function over 120 lines (every line counted): a longer one has parts that want names of their own.
  // It holds everywhere it applies, with no file exempted.
  {
    files: ['main/**/*.ts', 'preload/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 120 }] },
  },
  // §1: no Electron, native adapters or React in the core, not even with a dynamic import().
  packages(
    ['main/core/**/*.ts'],
    [
      {
        group: ['electron', 'electron/*', 'electron-store', 'keytar', 'react', 'react-dom', 'react/*'],
        message: `main/core must not import Electron, native adapters or React (${ARCH} §1).`,
      },
    ],
  ),
  {
    files: ['main/core/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...rawIpc,
        {
          selector: 'ImportExpression[source.value=/^(electron|keytar)(\\/|$)/]',
          message: `main/core must not load Electron or keytar, not even with import() (${ARCH} §1).`,
        },
        {
          selector: "CallExpression[callee.name='require'][arguments.0.value=/^(electron|keytar)(\\/|$)/]",
          message: `main/core must not load Electron or keytar (${ARCH} §1).`,
        },
      ],
    },
  },
  // §3: the renderer and the preload use no Node built-ins (by resolution, so a module of ours
  // named like one, e.g. ./events, is not mistaken for it), and the renderer only types of the contract.
  {
    files: ['renderer/**/*.{ts,tsx}', 'preload/**/*.ts'],
    rules: { 'import-x/no-nodejs-modules': ['error'] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'scanbridge/type-only-imports': [
        'error',
        {
          dir: 'preload',
          allow: ['preload/contract/vocabulary.ts'],
          message: `The renderer imports only types from preload/contract (values from vocabulary.ts): use import type (${ARCH} §3).`,
        },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', 'electron/*'], message: `The renderer never imports Electron (${ARCH} §3).` },
          ],
        },
      ],
    },
  },
  // §5: raw IPC only inside the typed wrappers.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['main/ipc/**', 'preload/index.ts', 'preload/patient.ts', 'main/core/**'],
    rules: { 'no-restricted-syntax': ['error', ...rawIpc] },
  },
);
