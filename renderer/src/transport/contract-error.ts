import type { ContractError } from '../../../preload/contract';

/** True for a ContractError value (what every transport rejects with). */
export function isContractError(value: unknown): value is ContractError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { code?: unknown; message?: unknown };
  return typeof v.code === 'string' && typeof v.message === 'string';
}

/** Any rejection as a ContractError, so the UI can always translate by code. */
export function asContractError(value: unknown): ContractError {
  if (isContractError(value)) return value;
  return { code: 'internal', message: value instanceof Error ? value.message : String(value) };
}
