// The typed contract between the window (renderer) and the core (main process, or the browser-mode
// server). One definition, three users: main registers handlers from `methods`, the preload and the
// HTTP transport expose them, the renderer calls them. Payloads are validated in main with these schemas.
import type { z } from 'zod';
import { activityMethods } from './activity-methods';
import type { NotificationsState } from './activity-methods';
import { appMethods } from './app-methods';
import { consentMethods } from './consent-methods';
import { referrersMethods } from './referrers-methods';
import { examsMethods } from './exams-methods';
import { implantsMethods } from './implants-methods';
import { inboxMethods } from './inbox-methods';
import { networkMethods } from './network-methods';
import type { ServiceReachView } from './network-methods';
import type { SkippedCopyView } from './inbox-methods';
import { outcomeMethods } from './outcome-methods';
import { takesMethods } from './takes-methods';
import { patientMethods } from './patient-methods';
import { receiveMethods } from './receive-methods';
import { reportsMethods } from './reports-methods';
import { shareMethods } from './share-methods';
import { supportMethods } from './support-methods';
import { templatesMethods } from './templates-methods';
import type { AccountView, InboxItem, KeysStatus, RateState, Settings, UploadJobView } from './types';
import type { ConsentSessionView, ConsentStatusView } from './types-consent';
import { uploadsMethods } from './uploads-methods';
import { webhooksMethods } from './webhooks-methods';

export type * from './types';
export * from './vocabulary';
export * from './error-codes';
export type * from './support-methods';
export type * from './activity-methods';
export type * from './webhooks-methods';
export type * from './takes-methods';
export type * from './types-consent';
export type * from './referrers-methods';
export type * from './templates-methods';
export type * from './implants-methods';
export { patientMethodNames } from './patient-methods';
export type * from './types-completeness';
export type * from './exams-methods';
export type * from './share-methods';
export type * from './reports-methods';
export type * from './outcome-methods';
export type * from './receive-methods';
export type * from './network-methods';
export type { SkippedCopyView } from './inbox-methods';

/**
 * Every method of the contract: the domain modules' slices combined. A new domain adds its own
 * module (its schemas and `…Methods` map) and one line here.
 */
export const methods = {
  ...appMethods,
  ...inboxMethods,
  ...uploadsMethods,
  ...supportMethods,
  ...activityMethods,
  ...webhooksMethods,
  ...takesMethods,
  ...consentMethods,
  ...patientMethods,
  ...referrersMethods,
  ...templatesMethods,
  ...implantsMethods,
  ...examsMethods,
  ...shareMethods,
  ...reportsMethods,
  ...outcomeMethods,
  ...receiveMethods,
  ...networkMethods,
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type MethodArgs<M extends MethodName> = z.input<Methods[M]['args']>;
export type MethodResult<M extends MethodName> = Methods[M]['result'];

/** Events pushed from the core to every window. */
export type Events = {
  /** Upload jobs that changed since the last push (batched, at most a few per second). */
  'uploads:state': UploadJobView[];
  /** The whole inbox after a change (batched). */
  'inbox:changed': InboxItem[];
  'settings:changed': Settings;
  'keys:changed': KeysStatus;
  'account:rate': RateState;
  /** The latest notifications, after each background check and each mark-read. */
  'notifications:changed': NotificationsState;
  /** GET /me refreshed in the background. */
  'account:changed': AccountView;
  /** The newest activity entry changed (the window refetches the log if it shows it). */
  'activity:changed': { latest_at: string | null };
  /** A consent's status changed (signed in person, or found signed by the refresher). */
  'consent:status': { exam_id: string; consent: ConsentStatusView };
  /** The patient-display session changed (null: it ended). */
  'consent:session': ConsentSessionView | null;
  /** Copies of already uploaded studies found lately, after each change. */
  'inbox:copies': SkippedCopyView[];
  /** The service became reachable or unreachable (see ServiceReachView). */
  'service:reach': ServiceReachView;
};
export type EventName = keyof Events;
export const eventNames: readonly EventName[] = [
  'uploads:state',
  'inbox:changed',
  'settings:changed',
  'keys:changed',
  'account:rate',
  'notifications:changed',
  'account:changed',
  'activity:changed',
  'consent:status',
  'consent:session',
  'service:reach',
  'inbox:copies',
];

/** An error crossing the contract: a stable code the UI translates, and a technical message. */
export type ContractError = { code: string; message: string; details?: { field: string; message: string }[] };

/** What an IPC call answers (errors travel as data: Electron keeps only the message of a thrown Error). */
export type IpcReply = { ok: true; result: unknown } | { ok: false; error: ContractError };

/** True for a ContractError value (what every transport rejects with). */
export function isContractError(value: unknown): value is ContractError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

type Domain<N extends string> = N extends `${infer D}:${string}` ? D : never;
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type ActionsOf<D extends string> = {
  [M in MethodName as M extends `${D}:${infer A}` ? Camel<A> : never]: (
    args: MethodArgs<M>,
  ) => Promise<MethodResult<M>>;
};

/**
 * What the renderer sees as `window.scanbridge` (through the preload) or builds over HTTP in browser
 * mode: named methods grouped by domain (`scanbridge.folders.add({...})`), and `on` for events.
 */
export type ScanBridgeApi = { [D in Domain<MethodName>]: ActionsOf<D> } & {
  on: <E extends EventName>(name: E, listener: (payload: Events[E]) => void) => () => void;
};

const camel = (s: string): string => s.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Builds the named-method object from one transport function; used by the preload and the HTTP transport. */
export function buildApi(
  call: (name: MethodName, args: unknown) => Promise<unknown>,
  on: ScanBridgeApi['on'],
): ScanBridgeApi {
  const api: Record<string, Record<string, (args?: unknown) => Promise<unknown>>> = {};
  for (const name of Object.keys(methods) as MethodName[]) {
    const [domain, action] = name.split(':') as [string, string];
    const group = (api[domain] ??= {});
    group[camel(action)] = (args?: unknown) => call(name, args ?? {});
  }
  return Object.assign(api, { on }) as unknown as ScanBridgeApi;
}
