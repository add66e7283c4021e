// The app's own settings on the contract: what the app is, its settings, the watch folders and the
// API keys, with the account the active key belongs to.
import { dirname } from 'node:path';
import { APP_VERSION } from '../../api/http';
import type { SettingsPatch, WatchFolder } from '../../settings';
import { dismissSettingsDamage, newWatchFolder } from '../../settings';
import type { Handlers } from '../host/contract-host';
import { ContractFailure } from '../host/contract-host';
import { accountView } from '../service/service-connection';
import type { HandlerContext } from './handler-context';
import { checkFolder, updateSettings } from './handler-context';
import { definedFields } from '../../defined';
import { sameFolder } from '../../folder-identity';

type SettingsMethod = 'app:info' | 'settings:get' | 'settings:dismiss-damage' | 'settings:update' | 'account:get';
type FolderMethod = 'folders:add' | 'folders:update' | 'folders:remove' | 'folders:pick';
type KeyMethod = 'keys:status' | 'keys:verify' | 'keys:save' | 'keys:activate' | 'keys:remove';

export function createSettingsHandlers(ctx: HandlerContext): Pick<Handlers, SettingsMethod> {
  return {
    'app:info': async () => ({
      version: APP_VERSION,
      transport: ctx.transport,
      platform: process.platform,
      system_language: ctx.systemLanguage,
    }),

    'settings:get': async () => ctx.settingsView(),
    'settings:dismiss-damage': async () => {
      dismissSettingsDamage(dirname(ctx.settingsStore.path));
      return ctx.settingsView();
    },
    'settings:update': async (args) => {
      const patch: SettingsPatch = definedFields(args, ['language']);
      if (args.upload) {
        patch.upload = definedFields(args.upload, ['concurrency', 'mode', 'compress']);
        if (args.upload.bandwidth_limit !== undefined)
          patch.upload.bandwidth_limit_bytes_per_s = args.upload.bandwidth_limit;
      }
      if (args.handout_paper !== undefined) patch.handout = { paper: args.handout_paper };
      if (args.exam_name_template !== undefined || args.default_expiration_days !== undefined) {
        patch.inbox = {
          ...ctx.settingsStore.get().inbox,
          ...(args.exam_name_template !== undefined ? { exam_name_template: args.exam_name_template } : {}),
          ...(args.default_expiration_days !== undefined
            ? { default_expiration_days: args.default_expiration_days }
            : {}),
        };
      }
      if (Object.keys(patch).length > 0) updateSettings(ctx.settingsStore, patch);
      return ctx.settingsView();
    },

    'account:get': async () => {
      const client = ctx.service.require();
      const view = accountView(await client.account.me(), client);
      ctx.poll.markFresh('account');
      return view;
    },
  };
}

export function createFolderHandlers(ctx: HandlerContext): Pick<Handlers, FolderMethod> {
  const folders = (): WatchFolder[] => ctx.settingsStore.get().watch_folders;
  const findFolder = (id: string): WatchFolder => {
    const f = folders().find((x) => x.id === id);
    if (!f) throw new ContractFailure('not_found', 'This watch folder is no longer configured.');
    return f;
  };
  return {
    'folders:add': async (args) => {
      const path = await checkFolder(args.path);
      if (folders().some((f) => sameFolder(f.path, path)))
        throw new ContractFailure('folder_exists', 'This folder is already watched.', [
          { field: 'path', message: 'already watched' },
        ]);
      const folder = newWatchFolder({ ...args, path });
      updateSettings(ctx.settingsStore, { watch_folders: [...folders(), folder] });
      return ctx.settingsView();
    },
    'folders:update': async (args) => {
      const current = findFolder(args.id);
      const next: WatchFolder = {
        ...current,
        ...definedFields(args, ['exam_type', 'mode', 'settle_seconds', 'polling', 'share_rule']),
      };
      if (args.path !== undefined) {
        next.path = await checkFolder(args.path);
        if (folders().some((f) => f.id !== args.id && sameFolder(f.path, next.path)))
          throw new ContractFailure('folder_exists', 'This folder is already watched.', [
            { field: 'path', message: 'already watched' },
          ]);
      }
      updateSettings(ctx.settingsStore, { watch_folders: folders().map((f) => (f.id === args.id ? next : f)) });
      return ctx.settingsView();
    },
    'folders:remove': async (args) => {
      findFolder(args.id);
      updateSettings(ctx.settingsStore, { watch_folders: folders().filter((f) => f.id !== args.id) });
      return ctx.settingsView();
    },
    'folders:pick': async () => ({ path: await ctx.folderPicker() }),
  };
}

export function createKeyHandlers(ctx: HandlerContext): Pick<Handlers, KeyMethod> {
  return {
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
  };
}
