// One emulator, and if asked one scratch folder, shared by the tests of a file (vitest hooks).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { EmulatorProcess, type EmulatorOptions } from './emulator';

export type EmulatorScene = {
  /** The emulator; read it inside a test or a hook, once it has started. */
  readonly emulator: EmulatorProcess;
  /** The scratch folder (only with `scratch`). */
  readonly scratch: string;
};

export type SceneOptions = {
  /** How the emulator is started. */
  emulator?: EmulatorOptions;
  /** A scratch folder `<temp>/<scratch>XXXXXX` too: keep the prefix short, D-Bus socket paths below it hold at most 107 bytes. */
  scratch?: string;
  /** Runs first at the end, before the emulator is stopped (to kill processes a test left running). */
  atEnd?: () => void;
};

/** Registers beforeAll/afterAll that start one emulator (and make the scratch folder) for the file, and dispose of them after its tests. */
export function emulatorScene(options: SceneOptions = {}): EmulatorScene {
  let emulator: EmulatorProcess | undefined;
  let scratch: string | undefined;
  beforeAll(async () => {
    emulator = await EmulatorProcess.start(options.emulator);
    if (options.scratch !== undefined) scratch = mkdtempSync(join(tmpdir(), options.scratch));
  });
  afterAll(async () => {
    options.atEnd?.();
    await emulator?.dispose();
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });
  return {
    get emulator(): EmulatorProcess {
      if (!emulator) throw new Error('the emulator has not started: read it inside a test or a hook');
      return emulator;
    },
    get scratch(): string {
      if (scratch === undefined)
        throw new Error(
          options.scratch === undefined
            ? 'this scene has no scratch folder'
            : 'the scratch folder is not made yet: read it inside a test or a hook',
        );
      return scratch;
    },
  };
}
