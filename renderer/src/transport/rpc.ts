import type { ContractError } from '../../../preload/contract';
import { isContractError } from './contract-error';

/**
 * One call to the local service in browser mode: `POST /rpc/<method>` with the bearer token; the
 * answer is `{ result }`, or `{ error }` carrying a ContractError. The window's transport and the
 * patient display's both call through here.
 */
export async function rpcCall(origin: string, token: string, name: string, args: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${origin}/rpc/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(args ?? {}),
      cache: 'no-store',
    });
  } catch {
    throw {
      code: 'bridge_unreachable',
      message: 'The ScanBridge service on this computer did not answer.',
    } satisfies ContractError;
  }
  // A non-JSON answer is an error whatever its status.
  const body: unknown = await res.json().catch(() => null);
  if (res.ok && typeof body === 'object' && body !== null && 'result' in body)
    return (body as { result: unknown }).result;
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  throw isContractError(error)
    ? error
    : ({ code: 'internal', message: `Unexpected answer (${res.status}).` } satisfies ContractError);
}
