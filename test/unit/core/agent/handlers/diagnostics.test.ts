// The diagnostics summary attached to a support ticket carries no key, no patient data and no path.
import { describe, expect, it } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import { buildDiagnostics } from '@main/core/agent/handlers/diagnostics';
import { defaultSettings } from '@main/core/settings';

const KEY = 'cbct_live_0123456789abcdef0123456789abcdef';

function failedJob(code: string, i: number): UploadJobView {
  return {
    id: `job_${i}`,
    inbox_id: null,
    name: `CBCT MUÑOZ JUAN CARLOS 2026-03-02 #${i}`,
    patient_name: 'JUAN CARLOS MUÑOZ',
    exam_type: 'cbct',
    phase: 'failed',
    mode: 'files',
    exam_id: `exm_${i}`,
    viewer_url: `https://viewer.example/${KEY}`,
    bytes_total: 10,
    bytes_sent: 5,
    files_total: 2,
    files_done: 1,
    rate: 0,
    eta_seconds: null,
    error: { code, message: `could not read /scans/MUÑOZ^JUAN/IM_000${i}.dcm` },
    retry_at: null,
    created_at: '2026-03-02T10:00:00Z',
    updated_at: '2026-03-02T10:00:00Z',
  };
}

describe('support diagnostics', () => {
  it('summarises version, system, settings and upload errors by code, and nothing private', () => {
    const settings = defaultSettings();
    settings.api_base_url = `https://clinic:${KEY}@api.service.example/api/v1`;
    settings.watch_folders = [
      {
        id: 'f1',
        path: '/srv/scans/MUÑOZ^JUAN CARLOS',
        exam_type: 'cbct',
        mode: 'auto',
        settle_seconds: 30,
        polling: true,
      },
      {
        id: 'f2',
        path: 'C:\\Exports\\Paciente 12.345.678-5',
        exam_type: 'from_dicom',
        mode: 'review',
        settle_seconds: 30,
        polling: false,
      },
    ];
    const d = buildDiagnostics({
      appVersion: '1.2.3',
      os: { platform: 'win32', release: '10.0.22631', arch: 'x64' },
      nodeVersion: '20.20.0',
      transport: 'ipc',
      settings,
      activeKey: 'live',
      jobs: [
        failedJob('file_unreadable', 1),
        failedJob('file_unreadable', 2),
        failedJob('network', 3),
        { ...failedJob('x', 4), error: null, phase: 'ready' },
      ],
    });
    expect(d.app_version).toBe('1.2.3');
    expect(d.os).toBe('win32 10.0.22631 (x64)');
    expect(d.upload_errors).toEqual([
      { code: 'file_unreadable', count: 2 },
      { code: 'network', count: 1 },
    ]);
    expect(d.settings).toMatchObject({
      service: 'https://api.service.example',
      key_in_use: 'live',
      watch_folders: 2,
      watch_folders_auto: 1,
      watch_folders_polling: 1,
    });
    const everything = JSON.stringify(d);
    for (const secret of [KEY, 'MUÑOZ', 'JUAN', '12.345.678-5', '/srv/scans', 'Exports', 'exm_1', 'job_1', 'IM_000'])
      expect(everything).not.toContain(secret);
    expect(d.text).toContain('file_unreadable×2');
    expect(d.text).toContain('app: 1.2.3');
  });
});
