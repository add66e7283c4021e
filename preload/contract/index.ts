// The typed contract between the window (renderer) and the core (main process, or the browser-mode
// server). One definition, three users: main registers handlers from `methods`, the preload and the
// HTTP transport expose them, the renderer calls them. Payloads are validated in main with these schemas.
import { z } from 'zod';
import type {
  AccountView, AppInfo, InboxItem, KeysStatus, RateState, Settings, UploadJobView,
} from './types';

export type * from './types';

const examType = z.enum(['cbct', 'radiografia', 'mesh', 'atm']);
const folderExamType = z.enum(['from_dicom', 'cbct', 'radiografia', 'mesh', 'atm']);
const keyKind = z.enum(['live', 'sandbox']);
const id = z.string().min(1).max(200);
const noArgs = z.object({}).strict();

const folderFields = z.object({
  path: z.string().min(1).max(4096),
  exam_type: folderExamType,
  mode: z.enum(['auto', 'review']),
  settle_seconds: z.number().int().min(1).max(3600),
  polling: z.boolean(),
}).strict();

const inboxFields = z.object({
  name: z.string().trim().min(1).max(200),
  patient_name: z.string().max(200),
  patient_id: z.string().max(64),
  birth_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
  reason: z.string().max(2000),
  exam_type: examType,
  expiration_days: z.number().int().min(1).max(3650).nullable(),
}).strict();

/** Declares a method: its argument schema and (as a phantom) its result type. */
const method = <R>() => <A extends z.ZodType>(args: A) => ({ args, result: undefined as unknown as R });

export const methods = {
  'app:info': method<AppInfo>()(noArgs),

  'settings:get': method<Settings>()(noArgs),
  'settings:update': method<Settings>()(z.object({
    language: z.enum(['es', 'en', 'system']).optional(),
    exam_name_template: z.string().min(1).max(200).optional(),
    default_expiration_days: z.number().int().min(1).max(3650).nullable().optional(),
    upload: z.object({
      concurrency: z.number().int().min(1).max(16).optional(),
      bandwidth_limit: z.number().int().min(0).max(10 * 1024 ** 3).optional(),
      mode: z.enum(['files', 'zip', 'auto']).optional(),
    }).strict().optional(),
  }).strict()),

  'folders:add': method<Settings>()(folderFields),
  'folders:update': method<Settings>()(folderFields.partial().extend({ id })),
  'folders:remove': method<Settings>()(z.object({ id }).strict()),
  /** Opens the OS folder picker (desktop only); null when cancelled or unavailable. */
  'folders:pick': method<{ path: string | null }>()(noArgs),

  'keys:status': method<KeysStatus>()(noArgs),
  /** Verifies a pasted key with GET /me without saving it. */
  'keys:verify': method<AccountView>()(z.object({ key: z.string().trim().min(8).max(512) }).strict()),
  /** Verifies, stores in the OS keychain and activates a key; its kind follows its prefix. */
  'keys:save': method<{ status: KeysStatus; account: AccountView }>()(z.object({ key: z.string().trim().min(8).max(512) }).strict()),
  'keys:activate': method<KeysStatus>()(z.object({ kind: keyKind }).strict()),
  'keys:remove': method<KeysStatus>()(z.object({ kind: keyKind }).strict()),

  'account:get': method<AccountView>()(noArgs),

  'inbox:list': method<InboxItem[]>()(noArgs),
  'inbox:update': method<InboxItem>()(z.object({
    id,
    fields: inboxFields.partial().optional(),
    excluded_series: z.array(z.string().max(128)).max(1000).optional(),
  }).strict()),
  'inbox:upload': method<{ job_id: string }>()(z.object({ id }).strict()),
  'inbox:dismiss': method<{ ok: true }>()(z.object({ id }).strict()),

  'uploads:list': method<UploadJobView[]>()(noArgs),
  'uploads:pause': method<UploadJobView>()(z.object({ id }).strict()),
  'uploads:resume': method<UploadJobView>()(z.object({ id }).strict()),
  'uploads:cancel': method<UploadJobView>()(z.object({ id }).strict()),
  'uploads:retry': method<UploadJobView>()(z.object({ id }).strict()),
  'uploads:clear-finished': method<{ removed: number }>()(noArgs),
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
};
export type EventName = keyof Events;
export const eventNames: readonly EventName[] = ['uploads:state', 'inbox:changed', 'settings:changed', 'keys:changed', 'account:rate'];

/** An error crossing the contract: a stable code the UI translates, and a technical message. */
export type ContractError = { code: string; message: string; details?: { field: string; message: string }[] };

/** What an IPC call answers (errors travel as data: Electron keeps only the message of a thrown Error). */
export type IpcReply = { ok: true; result: unknown } | { ok: false; error: ContractError };

/** True for a ContractError value (what every transport rejects with). */
export function isContractError(value: unknown): value is ContractError {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string' && typeof (value as { message?: unknown }).message === 'string';
}

type Domain<N extends string> = N extends `${infer D}:${string}` ? D : never;
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type ActionsOf<D extends string> = {
  [M in MethodName as M extends `${D}:${infer A}` ? Camel<A> : never]: (args: MethodArgs<M>) => Promise<MethodResult<M>>;
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
