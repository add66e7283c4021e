// The no-cycle lint rules of main/ARCHITECTURE.md §6: an import that closes a cycle is caught, a type
// import as much as a value import (import-x's no-cycle sees only the latter), however long the way
// round; the same imports without a way back pass.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@support/repo-paths';

const root = repoRoot;
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: '.config/eslint.config.js' });
});

/** The cycle messages for `code` if it were the file at `path` (other rules left out). */
async function cycles(path: string, code: string): Promise<{ rule: string; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId && /no-cycle|no-import-cycle/.test(m.ruleId))
    .map((m) => ({ rule: m.ruleId ?? '', message: m.message }));
}

// The agent's queue imports the upload plan (queue/upload-queue.ts → upload/plan, the entry point of
// plan.ts): a plan that imported the queue back would close a cycle.
const PLAN = 'main/core/upload/plan/plan.ts';

describe('import cycle lint rules', () => {
  it('catch a type import that closes a cycle, naming the way round and the architecture section', async () => {
    const found = await cycles(
      PLAN,
      "import type { UploadQueue } from '../../agent/queue/upload-queue';\nexport type Q = UploadQueue;\n",
    );
    expect(found).toHaveLength(1);
    expect(found[0]?.rule).toBe('cycles/no-import-cycle');
    // From the plan into the queue, and back through the plan's entry point.
    expect(found[0]?.message).toContain('main/core/upload/plan/plan.ts → main/core/agent/queue/upload-queue.ts → ');
    expect(found[0]?.message).toContain(' → main/core/upload/plan/index.ts → main/core/upload/plan/plan.ts.');
    expect(found[0]?.message).toContain('main/ARCHITECTURE.md §6');
  });

  it('catch a value import that closes a longer cycle, with both rules', async () => {
    // The agent's entry reaches the plan through the queue.
    const found = await cycles(PLAN, "import { startAgent } from '../../agent';\nexport const s = startAgent;\n");
    expect(found.map((f) => f.rule).sort()).toEqual(['cycles/no-import-cycle', 'import-x/no-cycle']);
  });

  it('let the same imports through where there is no way back', async () => {
    expect(
      await cycles(
        'main/core/agent/probe.ts',
        "import type { UploadQueue } from './queue/upload-queue';\nimport { startAgent } from '.';\nexport const s: [UploadQueue?, typeof startAgent?] = [];\n",
      ),
    ).toEqual([]);
  });

  it('find no cycle in the handlers: each domain module imports the shared context, never the index', async () => {
    const file = 'main/core/agent/handlers/handlers-takes.ts';
    expect(
      await cycles(file, "import { checkFolder } from './handler-context';\nexport const c = checkFolder;\n"),
    ).toEqual([]);
    expect(await cycles(file, "import { createHandlers } from '.';\nexport const c = createHandlers;\n")).toHaveLength(
      2,
    );
  });
});
