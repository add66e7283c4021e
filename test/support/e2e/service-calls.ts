// Direct calls to the emulator's API v1, to check what the app did from the service's side.
import type { EmulatorInfo } from '../emulator/emulator';
import { api } from '../emulator/emulator';

export type ExamSummary = {
  id: string;
  name: string;
  status: string;
  exam_type: string;
  patient_name?: string;
  patient_id?: string;
  birth_date?: string | null;
};

/** The account's exams, newest first (first page of 100). */
export async function listExams(info: EmulatorInfo, key: string): Promise<ExamSummary[]> {
  const res = await api(info, key, 'GET', '/exams?limit=100');
  if (res.status !== 200) throw new Error(`GET /exams → ${res.status}`);
  return (res.json['exams'] ?? []) as ExamSummary[];
}

/** Calls GET /me until the key's hourly allowance is used up (a 429); returns how many calls that took. */
export async function exhaustRateLimit(info: EmulatorInfo, key: string, max = 20_000): Promise<number> {
  for (let i = 1; i <= max; i++) {
    const res = await api(info, key, 'GET', '/me');
    if (res.status === 429) return i;
  }
  throw new Error(`no 429 after ${max} calls`);
}
