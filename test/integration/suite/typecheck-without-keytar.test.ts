// `npm run typecheck` passes on a computer where keytar (an optional native dependency) could not be
// built and is not installed: the projects that use it are type-checked with the TypeScript compiler
// through a host that hides node_modules/keytar, as such a computer has it.
import { join, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@support/repo-paths';

const hidden = `${sep}node_modules${sep}keytar`;
const isHidden = (p: string): boolean => p.includes(hidden) || p.includes('/node_modules/keytar');

describe('the type-check without keytar installed', () => {
  // The projects that reach keytar-secret-store.ts: the desktop shell and the tests.
  it.each(['main', 'test'])(
    'finds no error in %s/tsconfig.json',
    (project) => {
      const configPath = join(repoRoot, project, 'tsconfig.json');
      const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
      const config = ts.parseJsonConfigFileContent(read.config, ts.sys, join(repoRoot, project));
      const host = ts.createCompilerHost(config.options);
      const { fileExists, directoryExists, readFile } = host;
      host.fileExists = (p) => !isHidden(p) && fileExists.call(host, p);
      host.directoryExists = (p) => !isHidden(p) && (directoryExists?.call(host, p) ?? ts.sys.directoryExists(p));
      host.readFile = (p) => (isHidden(p) ? undefined : readFile.call(host, p));
      const program = ts.createProgram({
        rootNames: config.fileNames,
        options: { ...config.options, noEmit: true },
        host,
      });
      // The check is real: keytar's own files were not part of the program.
      expect(program.getSourceFiles().some((f) => isHidden(f.fileName))).toBe(false);
      const errors = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(errors).toEqual([]);
    },
    180_000,
  );
});
