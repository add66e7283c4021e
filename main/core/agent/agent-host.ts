// The contract as the agent serves it: the handlers over the agent's services, the events as the
// transport's subscription. A key added, removed or switched is another connection, and the window
// hears of both the keys and the settings (which show the active key).
import type { Language } from '../../../preload/contract';
import type { SettingsView } from './agent-settings';
import { createHandlers } from './handlers';
import type { HandlerContext } from './handlers/handler-context';
import type { ContractHost } from './host/contract-host';
import type { Logger } from '../log';
import { createContractHost } from './host/contract-host';
import type { EventHub } from './host/event-hub';

export type AgentServices = Omit<
  HandlerContext,
  'transport' | 'systemLanguage' | 'settingsView' | 'keysStatus' | 'keysChanged'
>;

export function openContractHost(
  o: AgentServices & {
    transport: HandlerContext['transport'];
    systemLanguage: Language;
    view: Pick<SettingsView, 'settings' | 'keysStatus'>;
    connect: () => void;
    events: Pick<EventHub, 'emit' | 'subscribe'>;
    log: Logger;
  },
): ContractHost {
  const { transport, systemLanguage, view, connect, events, log, ...services } = o;
  const keysChanged = (): void => {
    connect();
    events.emit('keys:changed', view.keysStatus());
    events.emit('settings:changed', view.settings());
  };
  const views = { settingsView: view.settings, keysStatus: view.keysStatus, keysChanged };
  const handlers = createHandlers({ transport, systemLanguage, ...services, ...views });
  return createContractHost(handlers, (l) => events.subscribe(l), log);
}
