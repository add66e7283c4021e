// Settings staff set in the window and the agent keeps: a watch folder's share rule, the DICOM
// listener's share rule and the paper of the patient's sheet. Each is saved through the contract,
// read back by a new agent on the same folders (as after a restart), reaches what the inbox's
// prefill hands to share-on-ready, and a bad address is refused with nothing saved.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodArgs, MethodName, MethodResult } from '@preload/contract';
import { startAgent, type Agent } from '@main/core/agent';
import { ContractFailure } from '@main/core/contract-failure';
import { RECEIVER_FOLDER_ID } from '@main/core/agent/pipeline/receivers';
import { createSettingsView } from '@main/core/agent/agent-settings';
import { openSettingsStore } from '@main/core/settings';
import { MemorySecretStore } from '@main/core/secrets';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sb-share-rule-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** What the inbox's prefill hands to share-on-ready for a source, read from the settings file. */
function ruleFor(dir: string, folderId: string): string[] | null {
  const view = createSettingsView({
    store: openSettingsStore({ cwd: join(dir, 'config'), env: {} }),
    keys: {
      has: () => false,
      value: () => null,
      slot: () => ({ present: false, hint: null, session_only: false }),
      keychainState: { available: true },
    },
    env: {},
    systemLanguage: 'es',
  });
  return view.prefill().shareRule?.(folderId)?.to ?? null;
}

async function agentIn(dir: string): Promise<Agent> {
  return startAgent({
    dataDir: join(dir, 'data'),
    configDir: join(dir, 'config'),
    env: {},
    secretStore: new MemorySecretStore(),
    transport: 'ipc',
    systemLanguage: 'es',
    log: quiet,
  });
}

function caller(agent: Agent) {
  return <M extends MethodName>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>> =>
    agent.host.call(name, args) as Promise<MethodResult<M>>;
}

/** The failure a call ends with (fails the test when it succeeds). */
async function refusal(call: Promise<unknown>): Promise<ContractFailure> {
  const outcome = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(outcome instanceof ContractFailure)) throw new Error(`expected a refusal, got ${String(outcome)}`);
  return outcome;
}

describe('share rules and the sheet paper in the settings', () => {
  it('saves, reads back after a restart, clears, and refuses a bad address without saving it', async () => {
    const dir = join(scratch, 'round-trip');
    const watched = join(dir, 'scanner');
    mkdirSync(watched, { recursive: true });

    let agent = await agentIn(dir);
    try {
      const call = caller(agent);
      const added = await call('folders:add', {
        path: watched,
        exam_type: 'cbct',
        mode: 'auto',
        settle_seconds: 5,
        polling: false,
      });
      const folderId = added.watch_folders[0]?.id ?? '';
      expect(added.watch_folders[0]?.share_rule).toBeNull();
      expect(added.handout_paper).toBe('A4');
      expect((await call('receive:get', {})).settings.share_rule).toBeNull();

      const rule = { to: ['dra.soto@clinica.example', 'Informes@Radiologia.example'], locale: 'es' as const };
      const updated = await call('folders:update', { id: folderId, share_rule: rule });
      expect(updated.watch_folders[0]).toMatchObject({
        id: folderId,
        mode: 'auto',
        settle_seconds: 5,
        share_rule: rule,
      });
      const listener = await call('receive:update', { share_rule: { to: ['pacs@clinica.example'], locale: null } });
      expect(listener.settings.share_rule).toEqual({ to: ['pacs@clinica.example'], locale: null });
      expect((await call('settings:update', { handout_paper: 'A5' })).handout_paper).toBe('A5');

      // A bad address: refused at the contract, naming the field; what was saved stays.
      const bad = await refusal(
        call('folders:update', { id: folderId, share_rule: { to: ['dra.soto@'], locale: 'es' } }),
      );
      expect(bad.code).toBe('invalid_args');
      expect(bad.details?.map((d) => d.field)).toEqual(['share_rule.to.0']);
      const badListener = await refusal(
        call('receive:update', { share_rule: { to: ['pacs@clinica.example', 'no address'], locale: 'en' } }),
      );
      expect(badListener.details?.map((d) => d.field)).toEqual(['share_rule.to.1']);
      const tooMany = Array.from({ length: 11 }, (_, i) => `r${i}@clinica.example`);
      expect((await refusal(call('receive:update', { share_rule: { to: tooMany, locale: null } }))).code).toBe(
        'invalid_args',
      );
      const paper = await refusal(
        call('settings:update', { handout_paper: 'Letter' } as unknown as MethodArgs<'settings:update'>),
      );
      expect(paper.code).toBe('invalid_args');
      expect((await call('settings:get', {})).watch_folders[0]?.share_rule).toEqual(rule);
      expect((await call('receive:get', {})).settings.share_rule).toEqual({
        to: ['pacs@clinica.example'],
        locale: null,
      });
    } finally {
      await agent.stop();
    }

    // What the file holds is what the upload path reads: the inbox's prefill and the sheet's paper.
    const stored = openSettingsStore({ cwd: join(dir, 'config'), env: {} }).get();
    expect(stored.handout.paper).toBe('A5');
    expect(stored.watch_folders[0]?.share_rule).toEqual({
      to: ['dra.soto@clinica.example', 'Informes@Radiologia.example'],
      locale: 'es',
    });
    expect(stored.dicom_listener.share_rule).toEqual({ to: ['pacs@clinica.example'], locale: null });

    agent = await agentIn(dir);
    try {
      const call = caller(agent);
      const settings = await call('settings:get', {});
      const folderId = settings.watch_folders[0]?.id ?? '';
      expect(settings.handout_paper).toBe('A5');
      expect(settings.watch_folders[0]?.share_rule?.to).toEqual([
        'dra.soto@clinica.example',
        'Informes@Radiologia.example',
      ]);
      expect(ruleFor(dir, folderId)).toHaveLength(2);
      expect(ruleFor(dir, RECEIVER_FOLDER_ID)).toEqual(['pacs@clinica.example']);

      // Cleared: the field emptied in the window saves null, and nobody is e-mailed.
      const cleared = await call('folders:update', { id: folderId, share_rule: null });
      expect(cleared.watch_folders[0]?.share_rule).toBeNull();
      expect((await call('receive:update', { share_rule: null })).settings.share_rule).toBeNull();
      expect(ruleFor(dir, folderId)).toBeNull();
      expect(ruleFor(dir, RECEIVER_FOLDER_ID)).toBeNull();
    } finally {
      await agent.stop();
    }
  });
});
