// Shared pieces of the agent's integration tests: the agent started against the emulator, and polling.
import type { MethodArgs, MethodName, MethodResult } from '../../../preload/contract';
import { startAgent, type Agent, type AgentOptions } from '../../../main/core/agent';
import type { EmulatorProcess } from '../emulator/emulator';

export type AgentCall = <M extends MethodName>(name: M, args: MethodArgs<M>) => Promise<MethodResult<M>>;
export type AgentHarness = { agent: Agent; call: AgentCall };

/** The agent against the emulator over the HTTP transport, with `options` (folders, key store, language, log…); `call` is its host's call, typed. */
export async function agentOn(
  emulator: EmulatorProcess,
  options: Omit<AgentOptions, 'env' | 'transport'>,
): Promise<AgentHarness> {
  const agent = await startAgent({
    ...options,
    env: { SCANBRIDGE_API_URL: emulator.info.base_url },
    transport: 'http',
  });
  const call = <M extends MethodName>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>> =>
    agent.host.call(name, args) as Promise<MethodResult<M>>;
  return { agent, call };
}

/** A `waitFor(probe, what, timeoutMs?)` that calls `probe` every `everyMs` until it gives a value (not undefined), and fails naming `what` after `timeoutMs` (`defaultTimeoutMs` unless given). */
export function poller(
  defaultTimeoutMs: number,
  everyMs: number,
): <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs?: number) => Promise<T> {
  return async <T>(
    probe: () => Promise<T | undefined> | T | undefined,
    what: string,
    timeoutMs = defaultTimeoutMs,
  ): Promise<T> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = await probe();
      if (v !== undefined) return v;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  };
}
