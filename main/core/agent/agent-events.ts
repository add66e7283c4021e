// The contract events the agent pushes on its own, beside the handlers' answers. The rate meter
// moves with every API call and the inbox's list with every file a watcher sees, so the window
// hears about each at most once per interval; the rest go out as they happen.
import type { EventName, Events } from '../../../preload/contract';
import { batchedEvent } from './host/batched-event';

type Emit = <E extends EventName>(name: E, payload: Events[E]) => void;

export type AgentEvents = {
  rate: (rate: Events['account:rate']) => void;
  inbox: (items: Events['inbox:changed']) => void;
  uploads: (changed: Events['uploads:state']) => void;
  account: (account: Events['account:changed']) => void;
  activity: (latest: Events['activity:changed']) => void;
  notifications: (state: Events['notifications:changed']) => void;
  reach: (view: Events['service:reach']) => void;
  copies: (copies: Events['inbox:copies']) => void;
  /** Sends what the batches still hold; nothing batched goes out after it. */
  close(): void;
};

export function agentEvents(emit: Emit, tuning: { inboxBatchMs?: number }): AgentEvents {
  const rate = batchedEvent(emit, 'account:rate', 1000);
  const inbox = batchedEvent(emit, 'inbox:changed', tuning.inboxBatchMs ?? 200);
  return {
    rate: (r) => rate.mark(r),
    inbox: (items) => inbox.mark(items),
    uploads: (changed) => emit('uploads:state', changed),
    account: (account) => emit('account:changed', account),
    activity: (latest) => emit('activity:changed', latest),
    notifications: (state) => emit('notifications:changed', state),
    reach: (view) => emit('service:reach', view),
    copies: (copies) => emit('inbox:copies', copies),
    close: () => {
      inbox.close();
      rate.close();
    },
  };
}
