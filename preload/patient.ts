// The patient display's preload (sandboxed): exposes `window.scanbridgePatient` with the consent
// session's four methods and nothing else. Main also refuses any other method from this window.
import { contextBridge, ipcRenderer } from 'electron';
import { isContractError } from './contract';
import type { IpcReply } from './contract';

type PatientMethod = 'patient:session' | 'patient:pdf' | 'patient:progress' | 'patient:sign';

async function call(name: PatientMethod, args: unknown): Promise<unknown> {
  const reply = (await ipcRenderer.invoke(name, args ?? {})) as IpcReply;
  if (reply.ok) return reply.result;
  throw isContractError(reply.error) ? reply.error : { code: 'internal', message: 'Unexpected answer from the app.' };
}

contextBridge.exposeInMainWorld('scanbridgePatient', {
  session: (args: unknown) => call('patient:session', args),
  pdf: (args: unknown) => call('patient:pdf', args),
  progress: (args: unknown) => call('patient:progress', args),
  sign: (args: unknown) => call('patient:sign', args),
});
