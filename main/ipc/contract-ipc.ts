// The only place the main process touches raw IPC. Every contract method is one `handle` channel
// (named like the method); every event is one `send` channel (named like the event). Calls from
// any frame that is not our app:// page are refused before their arguments are looked at.
import { ipcMain } from 'electron';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { methods } from '../../preload/contract';
import type { IpcReply, MethodName } from '../../preload/contract';
import type { ContractHost } from '../core/agent/host/contract-host';
import { toContractError } from '../core/agent/host/contract-host';
import { senderFrameAllowed } from '../windows/policy';

export type SenderCheck = (frameUrl: string) => boolean;

function senderAllowed(event: IpcMainInvokeEvent, allowed: SenderCheck): boolean {
  const frame = event.senderFrame;
  // Only the top frame of our own page: no subframes, no other origins, no destroyed frames.
  return senderFrameAllowed(frame) && frame !== null && allowed(frame.url);
}

/** Which window may call which method (the patient display: its session's methods only). */
export type MethodPermit = (name: MethodName, sender: WebContents) => boolean;

/** Registers a handler for every contract method; returns a function that removes them all. */
export function registerContractHandlers(
  host: ContractHost,
  allowed: SenderCheck,
  permit: MethodPermit = () => true,
): () => void {
  const names = Object.keys(methods) as MethodName[];
  for (const name of names) {
    ipcMain.handle(name, async (event, rawArgs: unknown): Promise<IpcReply> => {
      if (!senderAllowed(event, allowed))
        return { ok: false, error: { code: 'forbidden_origin', message: 'This window may not call ScanBridge.' } };
      if (!permit(name, event.sender))
        return { ok: false, error: { code: 'forbidden_method', message: 'This window may not do that.' } };
      try {
        return { ok: true, result: await host.call(name, rawArgs) };
      } catch (e) {
        return { ok: false, error: toContractError(e) };
      }
    });
  }
  return () => {
    for (const name of names) ipcMain.removeHandler(name);
  };
}

/** Forwards every contract event to the windows `targets()` returns at that moment (only live ones on our origin). */
export function forwardEvents(host: ContractHost, targets: () => WebContents[], allowed: SenderCheck): () => void {
  return host.subscribe((name, payload) => {
    for (const contents of targets()) {
      if (!contents.isDestroyed() && allowed(contents.getURL())) contents.send(name, payload);
    }
  });
}
