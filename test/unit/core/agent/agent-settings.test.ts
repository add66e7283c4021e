// The settings view the window sees is derived from the saved settings, the keys held and the
// environment: the language follows the system when set to, SCANBRIDGE_API_URL wins over the saved
// address, and only a key that is held counts as the active one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSettingsView, openAgentSettings } from '@main/core/agent/agent-settings';
import { RECEIVER_FOLDER_ID } from '@main/core/agent/pipeline/receivers';
import { KeyManager } from '@main/core/agent/service/api-keys';
import { MemorySecretStore } from '@main/core/secrets';

const scratch = mkdtempSync(join(tmpdir(), 'sb-agent-settings-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const LIVE_KEY = 'cbct_live_0123456789abcdef';

async function setUp(name: string, env: NodeJS.ProcessEnv = {}) {
  const store = openAgentSettings({
    dataDir: join(scratch, name, 'data'),
    configDir: join(scratch, name, 'config'),
    env,
    log: quiet,
  });
  const keys = new KeyManager(new MemorySecretStore(), quiet);
  await keys.load();
  return { store, keys, view: createSettingsView({ store, keys, env, systemLanguage: 'en' }) };
}

describe('the agent settings view', () => {
  it('follows the system language when set to, else the saved one', async () => {
    const { store, view } = await setUp('language');
    store.update({ language: 'system' });
    expect(view.language()).toBe('en');
    expect(view.settings().language).toBe('system');
    store.update({ language: 'es' });
    expect(view.language()).toBe('es');
    expect(view.prefill()).toMatchObject({ language: 'es' });
  });

  it('takes the address from SCANBRIDGE_API_URL over the saved one', async () => {
    const { store, view } = await setUp('address', { SCANBRIDGE_API_URL: 'http://127.0.0.1:9/v1' });
    store.update({ api_base_url: 'https://api.example.org/v1' });
    expect(view.settings().api_base_url).toBe('http://127.0.0.1:9/v1');
    const saved = await setUp('address-saved');
    saved.store.update({ api_base_url: 'https://api.example.org/v1' });
    expect(saved.view.settings().api_base_url).toBe('https://api.example.org/v1');
  });

  it('names an active key only while that key is held, and never shows its value', async () => {
    const { store, keys, view } = await setUp('keys');
    store.update({ active_key_kind: 'live' });
    expect(view.settings().active_key).toBeNull();
    expect(view.activeKey(store.get())).toBeNull();
    expect(view.keysStatus()).toMatchObject({ active: null, live: { present: false } });

    await keys.save(LIVE_KEY);
    expect(view.settings().active_key).toBe('live');
    expect(view.activeKey(store.get())).toBe(LIVE_KEY);
    expect(view.keysStatus()).toMatchObject({
      active: 'live',
      live: { present: true, hint: 'cdef' },
      sandbox: { present: false },
    });
    expect(JSON.stringify(view.keysStatus())).not.toContain(LIVE_KEY);
  });

  it('gives the inbox its prefill and the window the upload settings under their contract names', async () => {
    const { store, view } = await setUp('prefill');
    store.update({ inbox: { exam_name_template: '{patient} – {type}', default_expiration_days: 30 } });
    store.update({ upload: { bandwidth_limit_bytes_per_s: 1000 } });
    expect(view.prefill()).toMatchObject({
      template: '{patient} – {type}',
      language: view.language(),
      defaultExpirationDays: 30,
    });
    // A folder without a share rule e-mails nobody.
    expect(view.prefill().shareRule?.('wf_none')).toBeNull();
    expect(view.settings()).toMatchObject({ exam_name_template: '{patient} – {type}', default_expiration_days: 30 });
    expect(view.settings().upload.bandwidth_limit).toBe(1000);
  });

  it("gives received studies the DICOM listener's share rule, and each watch folder its own", async () => {
    const { store, view } = await setUp('share-rules');
    expect(view.prefill().shareRule?.(RECEIVER_FOLDER_ID)).toBeNull();
    const listenerRule = { to: ['derivaciones@clinica.cl'], locale: 'es' as const };
    const folderRule = { to: ['dr.perez@ejemplo.cl'], locale: null };
    store.update({
      dicom_listener: { ...store.get().dicom_listener, share_rule: listenerRule },
      watch_folders: [
        {
          id: 'wf_pano',
          path: join(scratch, 'pano'),
          mode: 'auto',
          exam_type: 'radiografia',
          settle_seconds: 5,
          polling: false,
          share_rule: folderRule,
        },
      ],
    });
    expect(view.prefill().shareRule?.(RECEIVER_FOLDER_ID)).toEqual(listenerRule);
    expect(view.prefill().shareRule?.('wf_pano')).toEqual(folderRule);
    expect(view.prefill().shareRule?.('wf_other')).toBeNull();
  });
});
