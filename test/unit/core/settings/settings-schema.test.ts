import { describe, expect, it } from 'vitest';
import {
  defaultSettings,
  newWatchFolder,
  readSettingsTolerant,
  SETTINGS_SCHEMA_VERSION,
  settingsSchema,
} from '@main/core/settings/settings-schema';

describe('settings schema', () => {
  it('gives a fresh install sensible defaults', () => {
    expect(defaultSettings()).toEqual({
      schema_version: SETTINGS_SCHEMA_VERSION,
      api_base_url: null,
      active_key_kind: 'live',
      language: 'system',
      watch_folders: [],
      upload: { concurrency: 4, bandwidth_limit_bytes_per_s: 0, mode: 'auto', compress: 'auto' },
      consent: { country_code: 'CL', copies_folder: null, display_id: null },
      inbox: { exam_name_template: '{type} {patient} {date}', default_expiration_days: null },
      dicom_listener: {
        enabled: false,
        ae_title: 'SCANBRIDGE',
        port: 11112,
        quiet_seconds: 30,
        stopped_after_minutes: 60,
        allowed_senders: [],
        exam_type: 'from_dicom',
        mode: 'review',
      },
      handout: { paper: 'A4' },
      network: { proxy_url: null, ca_file: null },
    });
  });

  it('keeps a DICOM listener setting that is valid, and falls back to the defaults when it is broken', () => {
    const good = readSettingsTolerant({
      dicom_listener: { enabled: true, ae_title: 'CLINICA_SB', port: 104, allowed_senders: ['CS3D', '10.0.0.7'] },
    });
    expect(good.settings.dicom_listener).toMatchObject({ enabled: true, ae_title: 'CLINICA_SB', port: 104 });
    expect(good.problems).toEqual([]);
    const bad = readSettingsTolerant({ dicom_listener: { ae_title: 'A\\B', port: 70000 } });
    expect(bad.settings.dicom_listener).toEqual(defaultSettings().dicom_listener);
    expect(bad.problems).toEqual(['dicom_listener']);
  });

  it('keeps the consent settings, and falls back to Chile when they are broken', () => {
    const good = readSettingsTolerant({
      consent: { country_code: 'AR', copies_folder: '/srv/consent', display_id: 7 },
    });
    expect(good.settings.consent).toEqual({ country_code: 'AR', copies_folder: '/srv/consent', display_id: 7 });
    expect(good.problems).toEqual([]);
    const bad = readSettingsTolerant({ consent: { country_code: 'Chile', display_id: 'two' } });
    expect(bad.settings.consent).toEqual({ country_code: 'CL', copies_folder: null, display_id: null });
    expect(bad.problems).toEqual(['consent']);
  });

  it('fills a new watch folder with an id and defaults', () => {
    const f = newWatchFolder({ path: '/mnt/cbct/export', exam_type: 'cbct' });
    expect(f).toEqual({
      id: expect.stringMatching(/^wf_/),
      path: '/mnt/cbct/export',
      exam_type: 'cbct',
      mode: 'review',
      settle_seconds: 30,
      polling: false,
    });
    expect(newWatchFolder({ path: '/x' }).id).not.toBe(f.id);
  });

  it('refuses values outside the schema', () => {
    const base = defaultSettings();
    expect(settingsSchema.safeParse({ ...base, language: 'fr' }).success).toBe(false);
    expect(settingsSchema.safeParse({ ...base, api_base_url: 'ftp://x' }).success).toBe(false);
    expect(settingsSchema.safeParse({ ...base, upload: { ...base.upload, concurrency: 0 } }).success).toBe(false);
    expect(
      settingsSchema.safeParse({ ...base, upload: { ...base.upload, bandwidth_limit_bytes_per_s: -1 } }).success,
    ).toBe(false);
    const f = newWatchFolder({ path: '/a' });
    expect(settingsSchema.safeParse({ ...base, watch_folders: [f, { ...f, path: '/b' }] }).success).toBe(false);
    expect(settingsSchema.safeParse({ ...base, watch_folders: [{ ...f, exam_type: 'xray' }] }).success).toBe(false);
  });

  it('reads a damaged file field by field, keeping the good values and naming the bad ones', () => {
    const good = newWatchFolder({ path: '/srv/share', polling: true });
    const { settings, problems } = readSettingsTolerant({
      schema_version: 1,
      api_base_url: 'https://api.example.cl/api/v1',
      language: 'klingon',
      watch_folders: [good, { id: 'broken' }, good],
      upload: { concurrency: 'many', bandwidth_limit_bytes_per_s: 500_000, mode: 'zip' },
      active_key_kind: 'sandbox',
    });
    expect(settings.api_base_url).toBe('https://api.example.cl/api/v1');
    expect(settings.language).toBe('system');
    expect(settings.active_key_kind).toBe('sandbox');
    expect(settings.watch_folders).toEqual([good]);
    expect(settings.upload).toEqual({
      concurrency: 4,
      bandwidth_limit_bytes_per_s: 500_000,
      mode: 'zip',
      compress: 'auto',
    });
    expect(problems.sort()).toEqual(['language', 'upload.concurrency', 'watch_folders[1]', 'watch_folders[2]']);
  });
});
