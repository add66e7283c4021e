// The main window's preload (sandboxed): exposes `window.scanbridge`, the contract's named methods
// and `on` for events, and nothing else of Electron. Rejections are ContractError values.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { buildApi, eventNames, isContractError } from './contract';
import type { EventName, Events, IpcReply, MethodName, ScanBridgeApi } from './contract';

async function call(name: MethodName, args: unknown): Promise<unknown> {
  const reply = (await ipcRenderer.invoke(name, args)) as IpcReply;
  if (reply.ok) return reply.result;
  throw isContractError(reply.error) ? reply.error : { code: 'internal', message: 'Unexpected answer from the app.' };
}

const on: ScanBridgeApi['on'] = <E extends EventName>(name: E, listener: (payload: Events[E]) => void) => {
  if (!eventNames.includes(name)) throw new Error(`unknown event ${String(name)}`);
  // The IPC event object (with its sender) never reaches the page: only the payload does.
  const handler = (_event: IpcRendererEvent, payload: Events[E]): void => listener(payload);
  ipcRenderer.on(name, handler);
  return () => {
    ipcRenderer.removeListener(name, handler);
  };
};

contextBridge.exposeInMainWorld('scanbridge', buildApi(call, on));
