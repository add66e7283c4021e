// ESLint flat config. Lives in .config/ because the project's top level is fixed;
// package.json runs `eslint --config .config/eslint.config.js`, so patterns are relative to the repo root.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** DESIGN.md §3: the layering rules, one block per folder. */
const layer = (files, patterns, paths = []) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }],
  },
});

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', 'main/.build/**', 'renderer/dist/**', 'test/.artifacts/**', 'test/fixtures/.generated/**'],
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
  // Rule 1: the core is Electron-free and DOM-free.
  layer(['main/core/**/*.ts'], [
    { group: ['electron', 'electron/*', 'electron-store', 'keytar', 'react', 'react-dom', 'react/*'], message: 'main/core must not import Electron, native adapters or React (DESIGN.md §3.1).' },
    { group: ['**/renderer/**', '**/windows/**', '**/ipc/**', '**/adapters/**', '**/test/**', '**/preload/index*'], message: 'main/core imports only main/core and preload/contract (DESIGN.md §3.1).' },
  ]),
  // Rule 2: the renderer is UI only.
  layer(['renderer/**/*.{ts,tsx}'], [
    { group: nodeBuiltins, message: 'The renderer never uses Node built-ins (DESIGN.md §3.2).' },
    { group: ['electron', 'electron/*', '**/main/**', '**/test/**', '**/preload/index*'], message: 'The renderer imports only renderer/ and types from preload/contract (DESIGN.md §3.2).' },
    { group: ['**/preload/contract/**'], allowTypeImports: true, message: 'The renderer imports only types from preload/contract (DESIGN.md §3.2).' },
  ]),
  // Rule 3: the preload imports only electron and the contract.
  layer(['preload/**/*.ts'], [
    { group: nodeBuiltins, message: 'The preload runs sandboxed: no Node built-ins (DESIGN.md §3.3).' },
    { group: ['**/main/**', '**/renderer/**', '**/test/**'], message: 'preload imports only electron and preload/contract (DESIGN.md §3.3).' },
  ]),
  // The contract itself imports nothing but schema tooling.
  layer(['preload/contract/**/*.ts'], [
    { group: [...nodeBuiltins, 'electron', '**/main/**', '**/renderer/**', '**/test/**', '../index*'], message: 'preload/contract imports nothing else (DESIGN.md §2).' },
  ]),
  // Rule 4: the emulator is an independent implementation of the spec.
  layer(['test/emulator/**/*.ts'], [
    { group: ['**/main/**', '**/preload/**', '**/renderer/**'], message: 'test/emulator must not import project code (DESIGN.md §3.4).' },
  ]),
  // Rule 5: raw IPC only inside the typed wrappers.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['main/ipc/**', 'preload/index.ts', 'preload/patient.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        { selector: "ImportSpecifier[imported.name=/^(ipcMain|ipcRenderer)$/]", message: 'Raw IPC only in main/ipc and preload/index.ts (DESIGN.md §3.5).' },
        { selector: "MemberExpression[object.property.name='webContents'][property.name='send']", message: 'webContents.send only in main/ipc (DESIGN.md §3.5).' },
        { selector: "MemberExpression[object.name='webContents'][property.name='send']", message: 'webContents.send only in main/ipc (DESIGN.md §3.5).' },
      ],
    },
  },
);
