// The proposed exam name speaks the window's language: the language setting, or the system's when
// it says `system`; switching the language re-proposes the names staff have not edited.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxItem } from '@preload/contract';
import { startAgent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { writeRadiograph } from '../../fixtures/dicom/generate';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sb-name-lang-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('exam name language', () => {
  it('follows the language setting, or the system language when it says system, for every name staff did not edit', async () => {
    const watched = join(scratch, 'scanner');
    await mkdir(watched, { recursive: true });
    await writeRadiograph(join(watched, 'PANO_1', 'PX1.dcm'), {
      modality: 'PX',
      patientName: 'NÚÑEZ^ÁLVARO',
      patientId: '1-9',
      studyDate: '20260310',
      charset: 'latin1',
    });
    await writeRadiograph(join(watched, 'PANO_2', 'PX2.dcm'), {
      modality: 'PX',
      patientName: 'ROJAS^INÉS',
      patientId: '2-7',
      studyDate: '20260311',
      charset: 'latin1',
    });
    const agent = await startAgent({
      dataDir: join(scratch, 'data'),
      configDir: join(scratch, 'config'),
      env: {},
      secretStore: new MemorySecretStore(),
      transport: 'ipc',
      systemLanguage: 'en',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const items = async (): Promise<InboxItem[]> => (await agent.host.call('inbox:list', {})) as InboxItem[];
    const names = async (): Promise<string[]> => (await items()).map((i) => i.fields.name).sort();
    try {
      await agent.host.call('folders:add', {
        path: watched,
        exam_type: 'from_dicom',
        mode: 'review',
        settle_seconds: 1,
        polling: false,
      });
      for (let i = 0; i < 200 && (await items()).length < 2; i++) await sleep(100);
      // The system speaks English and the setting says `system`.
      expect(await names()).toEqual(['Radiograph ÁLVARO NÚÑEZ 2026-03-10', 'Radiograph INÉS ROJAS 2026-03-11'].sort());

      // Staff edit one name; then switch the window to Spanish.
      const ines = (await items()).find((i) => i.fields.patient_name === 'INÉS ROJAS') as InboxItem;
      await agent.host.call('inbox:update', { id: ines.id, fields: { name: 'Panorámica Inés' } });
      await agent.host.call('settings:update', { language: 'es' });
      expect(await names()).toEqual(['Panorámica Inés', 'Radiografía ÁLVARO NÚÑEZ 2026-03-10'].sort());

      // A new template is applied in the language in use too.
      await agent.host.call('settings:update', { exam_name_template: '{patient} – {type}' });
      expect(await names()).toEqual(['Panorámica Inés', 'ÁLVARO NÚÑEZ – Radiografía'].sort());
    } finally {
      await agent.stop();
    }
  });
});
