// Every method of the contract, on the agent's services. Arguments arrive already parsed with the
// method's schema (contract.ts); what they name (folders, items, jobs) is checked here.
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { AppInfo, KeysStatus, Language, Settings, WatchFolder } from '../../../preload/contract';
import { APP_VERSION } from '../api/user-agent';
import type { SettingsPatch, SettingsStore } from '../settings';
import { newWatchFolder, SettingsValidationError } from '../settings';
import type { Handlers } from './contract';
import { ContractFailure } from './contract';
import { createTakesHandlers } from './handlers-takes';
import type { ConsentDesk } from '../consent/desk';
import { createConsentHandlers } from './handlers-consent';
import { createDirectoryHandlers } from './handlers-directory';
import { createImplantsHandlers } from './handlers-implants';
import { createTemplatesHandlers } from './handlers-templates';
import { createExamsHandlers } from './handlers-exams';
import { createReportsHandlers } from './handlers-reports';
import { createShareHandlers } from './handlers-share';
import type { Inbox } from './inbox';
import type { KeyManager } from './keys';
import { createActivityHandlers } from './handlers-activity';
import { createSupportHandlers } from './handlers-support';
import { createWebhooksHandlers } from './handlers-webhooks';
import { checkOutcome } from '../outcome-check';
import type { NotificationFeed } from './notification-feed';
import type { PollScheduler } from './poll-scheduler';
import type { FolderPicker } from './ports';
import type { ServiceConnection } from './service';
import { accountView } from './service';
import type { UploadQueue } from './upload-queue';
import type { ExamRecorder } from './exam-recorder';
import type { Claim } from '../watch';

export type HandlerContext = {
  transport: AppInfo['transport'];
  systemLanguage: Language;
  settingsStore: SettingsStore;
  keys: KeyManager;
  service: ServiceConnection;
  inbox: Inbox;
  queue: UploadQueue;
  /** Claims on the share and the done marker of every upload. */
  recorder: ExamRecorder;
  consent: ConsentDesk;
  folderPicker: FolderPicker;
  settingsView: () => Settings;
  keysStatus: () => KeysStatus;
  /** Re-reads which key is active, rebuilds the client and tells the windows. */
  keysChanged: () => void;
  /** The one background scheduler (see poll-scheduler.ts). */
  poll: PollScheduler;
  feed: NotificationFeed;
};

function updateSettings(store: SettingsStore, patch: SettingsPatch): void {
  try {
    store.update(patch);
  } catch (e) {
    if (e instanceof SettingsValidationError) throw new ContractFailure('invalid_args', 'These settings are not valid.', e.issues.map((i) => ({ field: i.path || '(settings)', message: i.message })));
    throw e;
  }
}

/** Checks a folder path from the window: absolute, existing, a folder. Returns it resolved. */
export async function checkFolder(path: string): Promise<string> {
  if (!isAbsolute(path)) throw new ContractFailure('invalid_args', 'Give the full path of the folder.', [{ field: 'path', message: 'must be an absolute path' }]);
  const full = resolve(path);
  let isDir: boolean;
  try {
    isDir = (await stat(full)).isDirectory();
  } catch {
    throw new ContractFailure('folder_not_found', 'This folder does not exist or cannot be read.', [{ field: 'path', message: 'not found' }]);
  }
  if (!isDir) throw new ContractFailure('not_a_folder', 'This path is a file, not a folder.', [{ field: 'path', message: 'not a folder' }]);
  return full;
}

/** The contract's handlers. */
export function createHandlers(ctx: HandlerContext): Handlers {
  const folders = (): WatchFolder[] => ctx.settingsStore.get().watch_folders;
  const findFolder = (id: string): WatchFolder => {
    const f = folders().find((x) => x.id === id);
    if (!f) throw new ContractFailure('not_found', 'This watch folder is no longer configured.');
    return f;
  };

  return {
    'app:info': async () => ({ version: APP_VERSION, transport: ctx.transport, platform: process.platform, system_language: ctx.systemLanguage }),

    'settings:get': async () => ctx.settingsView(),
    'settings:update': async (args) => {
      const patch: SettingsPatch = {};
      if (args.language !== undefined) patch.language = args.language;
      if (args.upload) {
        patch.upload = {};
        if (args.upload.concurrency !== undefined) patch.upload.concurrency = args.upload.concurrency;
        if (args.upload.bandwidth_limit !== undefined) patch.upload.bandwidth_limit_bytes_per_s = args.upload.bandwidth_limit;
        if (args.upload.mode !== undefined) patch.upload.mode = args.upload.mode;
      }
      if (args.exam_name_template !== undefined || args.default_expiration_days !== undefined) {
        patch.inbox = {
          ...ctx.settingsStore.get().inbox,
          ...(args.exam_name_template !== undefined ? { exam_name_template: args.exam_name_template } : {}),
          ...(args.default_expiration_days !== undefined ? { default_expiration_days: args.default_expiration_days } : {}),
        };
      }
      if (Object.keys(patch).length > 0) updateSettings(ctx.settingsStore, patch);
      return ctx.settingsView();
    },

    'folders:add': async (args) => {
      const path = await checkFolder(args.path);
      if (folders().some((f) => resolve(f.path) === path)) throw new ContractFailure('folder_exists', 'This folder is already watched.', [{ field: 'path', message: 'already watched' }]);
      const folder = newWatchFolder({ ...args, path });
      updateSettings(ctx.settingsStore, { watch_folders: [...folders(), folder] });
      return ctx.settingsView();
    },
    'folders:update': async (args) => {
      const current = findFolder(args.id);
      const next: WatchFolder = { ...current };
      if (args.path !== undefined) {
        next.path = await checkFolder(args.path);
        if (folders().some((f) => f.id !== args.id && resolve(f.path) === next.path)) throw new ContractFailure('folder_exists', 'This folder is already watched.', [{ field: 'path', message: 'already watched' }]);
      }
      if (args.exam_type !== undefined) next.exam_type = args.exam_type;
      if (args.mode !== undefined) next.mode = args.mode;
      if (args.settle_seconds !== undefined) next.settle_seconds = args.settle_seconds;
      if (args.polling !== undefined) next.polling = args.polling;
      updateSettings(ctx.settingsStore, { watch_folders: folders().map((f) => (f.id === args.id ? next : f)) });
      return ctx.settingsView();
    },
    'folders:remove': async (args) => {
      findFolder(args.id);
      updateSettings(ctx.settingsStore, { watch_folders: folders().filter((f) => f.id !== args.id) });
      return ctx.settingsView();
    },
    'folders:pick': async () => ({ path: await ctx.folderPicker() }),

    'keys:status': async () => ctx.keysStatus(),
    'keys:verify': async (args) => ctx.service.verify(args.key),
    'keys:save': async (args) => {
      // Nothing is stored before the service accepts the key.
      const account = await ctx.service.verify(args.key);
      const kind = await ctx.keys.save(args.key);
      updateSettings(ctx.settingsStore, { active_key_kind: kind });
      ctx.keysChanged();
      return { status: ctx.keysStatus(), account };
    },
    'keys:activate': async (args) => {
      if (!ctx.keys.has(args.kind)) throw new ContractFailure('no_key', `No ${args.kind} key is saved.`);
      updateSettings(ctx.settingsStore, { active_key_kind: args.kind });
      ctx.keysChanged();
      return ctx.keysStatus();
    },
    'keys:remove': async (args) => {
      await ctx.keys.remove(args.kind);
      ctx.keysChanged();
      return ctx.keysStatus();
    },

    'account:get': async () => {
      const client = ctx.service.require();
      const view = accountView(await client.account.me(), client);
      ctx.poll.markFresh('account');
      return view;
    },

    'inbox:list': async () => ctx.inbox.list(),
    'inbox:update': async (args) => ctx.inbox.update(args.id, args.fields, args.excluded_series),
    'inbox:upload': async (args) => {
      ctx.service.require();
      const item = ctx.inbox.get(args.id);
      if (item.status === 'uploaded') throw new ContractFailure('conflict', 'This study is already uploaded.');
      const request = await ctx.inbox.uploadRequest(args.id, 'review', args.allow_incomplete === true);
      let claim: Claim | null = null;
      if (request.ledger) {
        const c = await ctx.recorder.claimForReview(item.id, item.export_path, request.ledger, item.warnings.includes('already_uploaded_changed'));
        if (c.kind === 'done') {
          ctx.inbox.setStatus(args.id, 'uploaded', null);
          throw new ContractFailure('conflict', `Another computer already uploaded this study (exam ${c.exam_id}).`);
        }
        if (c.kind === 'held') throw new ContractFailure('conflict', 'Another computer is uploading this study right now.');
        claim = c.claim;
      }
      let view;
      try {
        view = await ctx.queue.enqueue(request);
      } catch (e) {
        await (claim ? claim.release() : ctx.recorder.release(item.id));
        throw e;
      }
      if (claim) ctx.recorder.hold(item.id, claim, () => void ctx.queue.standDown(item.id));
      ctx.inbox.setStatus(args.id, 'queued', view.id);
      return { job_id: view.id };
    },
    'inbox:dismiss': async (args) => {
      ctx.inbox.dismiss(args.id);
      return { ok: true as const };
    },

    'uploads:list': async () => ctx.queue.list(),
    'uploads:pause': async (args) => ctx.queue.pause(args.id),
    'uploads:resume': async (args) => ctx.queue.resume(args.id),
    'uploads:cancel': async (args) => ctx.queue.cancel(args.id),
    'uploads:retry': async (args) => {
      const view = await ctx.queue.retry(args.id, async (v) => (v.inbox_id && ctx.inbox.has(v.inbox_id) ? ctx.inbox.uploadRequest(v.inbox_id, 'review') : null));
      if (view.inbox_id && ctx.inbox.has(view.inbox_id)) ctx.inbox.setStatus(view.inbox_id, 'queued', view.id);
      return view;
    },
    'uploads:clear-finished': async () => ({ removed: ctx.queue.clearFinished() }),

    ...createSupportHandlers(ctx),
    ...createActivityHandlers(ctx),
    ...createWebhooksHandlers(ctx),
    ...createTakesHandlers(ctx),
    ...createConsentHandlers(ctx),
    ...createDirectoryHandlers(ctx),
    ...createTemplatesHandlers(ctx),
    ...createImplantsHandlers(ctx),
    ...createExamsHandlers(ctx),
    ...createShareHandlers(ctx),
    ...createReportsHandlers(ctx),
    // After a lost answer, the window's one look at what the service holds (core/outcome-check).
    'outcome:check': async (args) => checkOutcome(ctx.service.require(), args),
  };
}
