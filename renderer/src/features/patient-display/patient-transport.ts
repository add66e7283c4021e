import type { MethodArgs, MethodResult } from '../../../../preload/contract';
import { asContractError } from '../../transport/contract-error';
import { rpcCall } from '../../transport/rpc';

export type PatientMethod = 'patient:session' | 'patient:pdf' | 'patient:progress' | 'patient:sign';

/** How the patient display talks to the core: its own preload on the desktop, its token in browser mode. */
export type PatientTransport = {
  call<M extends PatientMethod>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>>;
};

/** What the patient window's preload exposes (and nothing else). */
export type PatientBridge = {
  session(args: unknown): Promise<unknown>;
  pdf(args: unknown): Promise<unknown>;
  progress(args: unknown): Promise<unknown>;
  sign(args: unknown): Promise<unknown>;
};

const STORAGE_KEY = 'scanbridge.patient-token';

/**
 * The patient page's one-time token: from `?patient=` on first load, then out of the address bar
 * and kept for this tab only (it dies with the consent session anyway).
 */
export function takePatientToken(location: Location, history: History, storage: Storage): string | null {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get('patient');
  if (fromUrl) {
    storage.setItem(STORAGE_KEY, fromUrl);
    params.delete('patient');
    const rest = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
    return fromUrl;
  }
  return storage.getItem(STORAGE_KEY);
}

/** True when this page is the patient display (the desktop's patient window, or the page opened with its token). */
export function isPatientPage(win: Window): boolean {
  return (
    'scanbridgePatient' in win ||
    new URLSearchParams(win.location.search).has('patient') ||
    win.location.hash.startsWith('#/patient')
  );
}

export function selectPatientTransport(win: Window): PatientTransport | null {
  const bridge = (win as Window & { scanbridgePatient?: PatientBridge }).scanbridgePatient;
  if (bridge) {
    const fns: Record<PatientMethod, (a: unknown) => Promise<unknown>> = {
      'patient:session': (a) => bridge.session(a),
      'patient:pdf': (a) => bridge.pdf(a),
      'patient:progress': (a) => bridge.progress(a),
      'patient:sign': (a) => bridge.sign(a),
    };
    return {
      async call(name, args) {
        try {
          return (await fns[name](args)) as never;
        } catch (e) {
          throw asContractError(e);
        }
      },
    };
  }
  const token = takePatientToken(win.location, win.history, win.sessionStorage);
  if (!token) return null;
  const origin = win.location.origin;
  return {
    async call(name, args) {
      return (await rpcCall(origin, token, name, args)) as never;
    },
  };
}
