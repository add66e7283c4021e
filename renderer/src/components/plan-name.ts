import type { TFunction } from 'i18next';

/** The plan's display name (`clinica` → "Clínica"); unknown plans are shown as the service names them. */
export function planName(plan: string, t: TFunction, exists: (key: string) => boolean): string {
  const key = `plans.${plan}`;
  return /^[a-z0-9_]+$/.test(plan) && exists(key) ? t(key) : plan;
}
