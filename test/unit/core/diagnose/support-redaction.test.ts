import { describe, expect, it } from 'vitest';
import { redact } from '@main/core/diagnose/redact';

describe('the support bundle redacts what must not leave the computer', () => {
  it('removes patient names and IDs the app knows of, in any order and case', () => {
    const known = ['JUAN CARLOS MUÑOZ', 'MUÑOZ^JUAN CARLOS', '12345678Z'];
    const line = 'watch: study of Juan Carlos Muñoz (12345678Z) complete; muñoz juan again';
    const out = redact(line, { known });
    expect(out).not.toMatch(/juan|carlos|muñoz|12345678Z/i);
    expect(out).toContain('watch: study of [patient]');
  });

  it('removes DICOM person names, RUTs, national IDs and long numbers it does not know of', () => {
    const out = redact('name=PÉREZ^ANA^MARÍA rut 12.345.678-K id 87654321X record 00123456789 exam exm_42');
    expect(out).toBe('name=[name] rut [id] id [id] record [id] exam exm_42');
  });

  it('removes API keys, Bearer tokens, e-mail addresses, logins in URLs and secrets in query strings', () => {
    const out = redact(
      'key cbct_live_0a1b2c3d4e Authorization: Bearer cbct_test_ffee11 share to dra.soto@clinica.cl via http://clinica:Secreto-123@10.0.0.5:3128 put https://s.example/o/1?expires=9&signature=abcd&x=1',
    );
    expect(out).not.toMatch(/cbct_|ffee11|dra\.soto|Secreto|clinica:|abcd/);
    expect(out).toContain('key [key]');
    expect(out).toContain('Bearer [key]');
    expect(out).toContain('[email]');
    expect(out).toContain('http://[login]@10.0.0.5:3128');
    expect(out).toContain('signature=[redacted]&x=1');
  });

  it('keeps what support needs: codes, exam ids, hosts, statuses and times', () => {
    const line =
      '2026-11-26T06:00:00.000Z warn: upload job_7 failed: network_error (ECONNREFUSED: unreachable) POST exams';
    expect(redact(line)).toBe(line);
  });
});
