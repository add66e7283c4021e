// The layering rules of main/ARCHITECTURE.md, as the lint config enforces them: each rule catches a
// file that breaks it (however the import path is spelled), lets the allowed imports through, and
// does not mistake a module of ours named like a Node built-in for the built-in.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@support/repo-paths';

const root = repoRoot;
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: '.config/eslint.config.js' });
});

/** The layering messages for `code` if it were the file at `path` (other rules left out). */
async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  const layering = /no-restricted-paths|no-restricted-imports|no-restricted-syntax|no-nodejs-modules|type-only-imports/;
  return (result?.messages ?? []).filter((m) => m.ruleId && layering.test(m.ruleId)).map((m) => m.message);
}

describe('layering lint rules', () => {
  it('keep the core free of the Electron shell, and point to the architecture document', async () => {
    const shell = await problems(
      'main/core/agent/probe.ts',
      "import { main } from '../../index';\nexport const x = main;\n",
    );
    expect(shell).toHaveLength(1);
    expect(shell[0]).toContain('main/ARCHITECTURE.md §1');
    expect(await problems('main/core/cli/probe.ts', "export { x } from '../../cli';\n")).toHaveLength(1);
    expect(await problems('main/core/probe.ts', "import '../adapters/keytar-secret-store';\n")).toHaveLength(1);
  });

  it('forbid loading Electron in the core, statically or with a dynamic import()', async () => {
    expect(
      await problems('main/core/agent/probe.ts', "import { app } from 'electron';\nexport const x = app;\n"),
    ).toHaveLength(1);
    const dynamic = await problems(
      'main/core/agent/probe.ts',
      "export async function f(): Promise<unknown> {\n  return import('electron');\n}\n",
    );
    expect(dynamic).toHaveLength(1);
    expect(dynamic[0]).toMatch(/import\(\)/);
  });

  it("keep the core's own order (api, dicom below upload and watch, below agent, below bridge and cli)", async () => {
    expect(await problems('main/core/api/probe.ts', "export { planUpload } from '../upload/plan';\n")).toHaveLength(1);
    // Spelled the long way round, it lands in the same place.
    expect(
      await problems('main/core/api/probe.ts', "export { planUpload } from '../api/../upload/plan';\n"),
    ).toHaveLength(1);
    expect(
      await problems('main/core/dicom/layering-probe.ts', "export { Ledger } from '../watch/ledger';\n"),
    ).toHaveLength(1);
    expect(await problems('main/core/upload/probe.ts', "export { Ledger } from '../watch/ledger';\n")).toHaveLength(1);
    expect(await problems('main/core/watch/probe.ts', "export { UploadJob } from '../upload/job';\n")).toHaveLength(1);
    expect(await problems('main/core/upload/probe.ts', "export { startAgent } from '../agent';\n")).toHaveLength(1);
    // The DICOM listener sits beside watch: neither imports the other.
    expect(await problems('main/core/receive/probe.ts', "export { Ledger } from '../watch/ledger';\n")).toHaveLength(1);
    expect(await problems('main/core/watch/probe.ts', "export { ReceiveService } from '../receive';\n")).toHaveLength(
      1,
    );
    expect(await problems('main/core/agent/probe.ts', "export { ReceiveService } from '../receive';\n")).toEqual([]);
    expect(
      await problems('main/core/agent/probe.ts', "export { startBridge } from '../bridge/server';\n"),
    ).toHaveLength(1);
    expect(
      await problems('main/core/bridge/probe.ts', "export { createServeCommand } from '../cli/serve';\n"),
    ).toHaveLength(1);
    // Downward imports are fine.
    expect(
      await problems(
        'main/core/agent/probe.ts',
        "export { planUpload } from '../upload/plan';\nexport { Ledger } from '../watch/ledger';\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'main/core/cli/probe.ts',
        "export { startBridge } from '../bridge/server';\nexport { startAgent } from '../agent';\n",
      ),
    ).toEqual([]);
  });

  it("keep the agent's rooms in their order (host at the bottom, handlers on top)", async () => {
    const up = await problems(
      'main/core/agent/host/probe.ts',
      "export type { UploadQueue } from '../queue/upload-queue';\n",
    );
    expect(up).toHaveLength(1);
    expect(up[0]).toContain('main/ARCHITECTURE.md §2');
    expect(
      await problems('main/core/agent/queue/probe.ts', "export type { Inbox } from '../inbox/inbox';\n"),
    ).toHaveLength(1);
    expect(
      await problems('main/core/agent/pipeline/probe.ts', "export { createHandlers } from '../handlers';\n"),
    ).toHaveLength(1);
    // Downward, and from the entry, is fine.
    const downward =
      "export type { Inbox } from '../inbox/inbox';\nexport type { UploadQueue } from '../queue/upload-queue';\n";
    expect(await problems('main/core/agent/pipeline/probe.ts', downward)).toEqual([]);
    expect(
      await problems('main/core/agent/handlers/probe.ts', "export type { Watchers } from '../pipeline/watchers';\n"),
    ).toEqual([]);
  });

  it("keep upload's rooms in their order (ports at the bottom, job on top)", async () => {
    const up = await problems('main/core/upload/ports/probe.ts', "export type { UploadJob } from '../job';\n");
    expect(up).toHaveLength(1);
    expect(up[0]).toContain('main/ARCHITECTURE.md §2');
    expect(
      await problems('main/core/upload/plan/probe.ts', "export { Journal } from '../journal/journal';\n"),
    ).toHaveLength(1);
    expect(
      await problems('main/core/upload/journal/probe.ts', "export { jobsDir } from '../state/job-store';\n"),
    ).toHaveLength(1);
    expect(
      await problems('main/core/upload/state/probe.ts', "export { UploadJob } from '../job/engine';\n"),
    ).toHaveLength(1);
    // Downward is fine.
    const downward =
      "export { planUpload } from '../plan/plan';\nexport { Journal } from '../journal/journal';\nexport { jobsDir } from '../state/job-store';\n";
    expect(await problems('main/core/upload/job/probe.ts', downward)).toEqual([]);
    expect(
      await problems('main/core/upload/compression/probe.ts', "export { planUpload } from '../plan/plan';\n"),
    ).toEqual([]);
  });

  it("let the rest of main/ reach upload's rooms through their entry points only", async () => {
    const deep = await problems('main/core/agent/probe.ts', "export { UploadJob } from '../upload/job/engine';\n");
    expect(deep).toHaveLength(1);
    expect(deep[0]).toContain("through its entry point ('upload/job')");
    expect(
      await problems('main/core/cli/probe.ts', "export { formatBytes } from '../upload/plan/plan';\n"),
    ).toHaveLength(1);
    expect(await problems('main/core/probe.ts', "export { jobsDir } from './upload/state/job-store';\n")).toHaveLength(
      1,
    );
    expect(
      await problems(
        'main/core/agent/probe.ts',
        "export { UploadJob } from '../upload/job';\nexport { jobsDir } from '../upload/state';\nexport { planUpload } from '../upload';\n",
      ),
    ).toEqual([]);
  });

  it("keep the api client's rooms in their order, and reach them through their entry points", async () => {
    const up = await problems('main/core/api/http/probe.ts', "export type { Account } from '../endpoints/account';\n");
    expect(up).toHaveLength(1);
    expect(up[0]).toContain('api/http/ imports no other part of the api client');
    expect(
      await problems('main/core/api/endpoints/probe.ts', "export { createApiClient } from '../client';\n"),
    ).toHaveLength(1);
    expect(
      await problems('main/core/api/endpoints/probe.ts', "export { ApiError } from '../http/api-errors';\n"),
    ).toEqual([]);
    const deep = await problems('main/core/upload/probe.ts', "export { ApiError } from '../api/http/api-errors';\n");
    expect(deep).toHaveLength(1);
    expect(deep[0]).toContain("through its entry point ('api/http')");
    expect(await problems('main/core/upload/probe.ts', "export { ApiError } from '../api/http';\n")).toEqual([]);
  });

  it("keep the DICOM reader's rooms in their order, and reach them through their entry points", async () => {
    const up = await problems('main/core/dicom/header/probe.ts', "export { walkFiles } from '../scan/walk';\n");
    expect(up).toHaveLength(1);
    expect(up[0]).toContain('dicom/header/ imports no other part of the DICOM reader');
    expect(
      await problems('main/core/dicom/scan/probe.ts', "export { parseDicomPrefix } from '../header/header';\n"),
    ).toEqual([]);
    expect(
      await problems('main/core/watch/probe.ts', "export { cleanText } from '../dicom/header/clean-text';\n"),
    ).toHaveLength(1);
    expect(await problems('main/core/watch/probe.ts', "export { cleanText } from '../dicom/header';\n")).toEqual([]);
  });

  it("keep the cli's rooms in their order (words, session, the commands)", async () => {
    const up = await problems('main/core/cli/words/probe.ts', "export { UsageError } from '../session/io';\n");
    expect(up).toHaveLength(1);
    expect(up[0]).toContain('cli/words/ imports no other part of the cli');
    expect(
      await problems('main/core/cli/words/probe.ts', "export type { CliCommand } from '../whoami';\n"),
    ).toHaveLength(1);
    expect(
      await problems('main/core/cli/session/probe.ts', "export { createServeCommand } from '../serve';\n"),
    ).toHaveLength(1);
    expect(await problems('main/cli.ts', "export { UsageError } from './core/cli/session/io';\n")).toHaveLength(1);
    expect(
      await problems(
        'main/core/cli/probe.ts',
        "export { UsageError } from './session/io';\nexport { serveWords } from './words/serve-words';\n",
      ),
    ).toEqual([]);
    expect(await problems('main/cli.ts', "export { UsageError } from './core/cli/session';\n")).toEqual([]);
  });

  it('keep test/ out of main/', async () => {
    expect(
      await problems(
        'main/core/agent/probe.ts',
        "export { EmulatorProcess } from '../../../test/support/emulator/emulator';\n",
      ),
    ).toHaveLength(1);
    expect(
      await problems(
        'main/windows/probe.ts',
        "export { writeRadiograph } from '../../test/fixtures/dicom/generate';\n",
      ),
    ).toHaveLength(1);
  });

  it('let the renderer import only types from preload/contract, whatever the path spelling', async () => {
    const file = 'renderer/src/features/probe.ts';
    expect(
      await problems(file, "import { methods } from '../../../preload/contract';\nexport const m = methods;\n"),
    ).toHaveLength(1);
    expect(
      await problems(file, "import { methods } from '../../../preload/contract/index';\nexport const m = methods;\n"),
    ).toHaveLength(1);
    expect(
      await problems(
        file,
        "import { appMethods } from '../../../renderer/../preload/contract/app-methods';\nexport const m = appMethods;\n",
      ),
    ).toHaveLength(1);
    expect(await problems(file, "export * from '../../../preload/contract/error-codes';\n")).toHaveLength(1);
    expect(
      await problems(file, "import type { Settings } from '../../../preload/contract';\nexport type S = Settings;\n"),
    ).toEqual([]);
    expect(
      await problems(
        file,
        "import { type Settings } from '../../../preload/contract/index';\nexport type S = Settings;\n",
      ),
    ).toEqual([]);
    // The shared lists of vocabulary.ts (plain constants, no zod) are the one exception, by that path only.
    expect(
      await problems(
        file,
        "import { EXAM_TYPES } from '../../../preload/contract/vocabulary';\nexport const e = EXAM_TYPES;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(file, "import { EXAM_TYPES } from '../../../preload/contract';\nexport const e = EXAM_TYPES;\n"),
    ).toHaveLength(1);
    // Nothing else of preload, nothing of main.
    expect(
      await problems(file, "import type { Api } from '../../../preload/index';\nexport type A = Api;\n"),
    ).toHaveLength(1);
    expect(
      await problems(file, "import type { Agent } from '../../../main/core/agent';\nexport type A = Agent;\n"),
    ).toHaveLength(1);
  });

  it('forbid Node built-ins in the renderer without mistaking a module of ours named like one', async () => {
    expect(
      await problems(
        'renderer/src/app/probe.ts',
        "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
      ),
    ).toHaveLength(1);
    expect(
      await problems(
        'renderer/src/app/probe.ts',
        "import { EventEmitter } from 'events';\nexport const e = EventEmitter;\n",
      ),
    ).toHaveLength(1);
    expect(
      await problems(
        'renderer/src/features/uploads/probe.ts',
        "export { useEventBinding } from '../../app/queries';\nexport * from './events';\nexport * from './path';\n",
      ),
    ).toEqual([]);
  });
});
