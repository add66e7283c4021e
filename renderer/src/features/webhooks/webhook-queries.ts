import type { CreatedWebhookView, MethodResult } from '../../../../preload/contract';
import { useCall, useContractQuery, useRefresh } from '../../app/queries';

export const webhookKeys = {
  list: ['webhooks'] as const,
  deliveries: (id: string) => ['webhook-deliveries', id] as const,
};

/** The subscriptions change only through this screen, which reads them again after each change. */
export const useWebhooks = () => useContractQuery(webhookKeys.list, 'webhooks:list', {}, { staleTime: 5 * 60_000 });

export const useDeliveries = (id: string) =>
  useContractQuery(webhookKeys.deliveries(id), 'webhooks:deliveries', { id }, { staleTime: 30_000 });

/** Reads the subscriptions again (after one is added, or found on the service after a lost answer). */
export const useRefreshWebhooks = () => useRefresh(webhookKeys.list);

export const useCreateWebhook = (onCreated: (w: CreatedWebhookView) => void) =>
  useCall({ name: 'webhooks:create' }, (w) => onCreated(w));

export const useUpdateWebhook = () =>
  useCall({ name: 'webhooks:update' }, (_w, qc) => void qc.invalidateQueries({ queryKey: webhookKeys.list }));

/** A test ping: its delivery shows in the deliveries, and the subscription's state may change. */
export const usePingWebhook = (id: string, onDone: (r: MethodResult<'webhooks:test'>) => void) =>
  useCall({ name: 'webhooks:test' }, (r, qc) => {
    onDone(r);
    void qc.invalidateQueries({ queryKey: webhookKeys.deliveries(id) });
    void qc.invalidateQueries({ queryKey: webhookKeys.list });
  });

export const useRemoveWebhook = (onDone: () => void) =>
  useCall({ name: 'webhooks:remove' }, (_r, qc) => {
    onDone();
    void qc.invalidateQueries({ queryKey: webhookKeys.list });
  });
