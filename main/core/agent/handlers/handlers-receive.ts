// The DICOM listener's settings and state ("Receive from scanners (DICOM)" in Settings).
import { networkInterfaces } from 'node:os';
import type { ReceiveView } from '../../../../preload/contract';
import type { Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';
import { updateSettings } from './handler-context';
import { shareRuleView } from '../share-rule-view';

export function createReceiveHandlers(ctx: HandlerContext): Pick<Handlers, 'receive:get' | 'receive:update'> {
  const view = (): ReceiveView => ({
    settings: (({ share_rule, ...rest }) => ({ ...rest, share_rule: shareRuleView(share_rule) }))(
      ctx.settingsStore.get().dicom_listener,
    ),
    status: ctx.receiveStatus(),
    addresses: localAddresses(),
  });
  return {
    'receive:get': async () => view(),
    'receive:update': async (patch) => {
      const current = ctx.settingsStore.get().dicom_listener;
      updateSettings(ctx.settingsStore, { dicom_listener: { ...current, ...patch } });
      // The listener restarts in the background (settings subscription); the window polls its state.
      return view();
    },
  };
}

/** This computer's IPv4 addresses a scanner on the network could reach (loopback left out). */
function localAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
}
