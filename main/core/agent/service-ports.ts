// What the upload queue needs from the service, always for the key in use: the engine's port (one
// per API client, rebuilt when the key or the address changes), an extra take's port, and the
// finishing touches of a ready exam (its expiry, its viewer link).
import type { ApiClient } from '../api';
import { type ExamsPort, examsPortFromClient } from '../upload/ports';
import { extraTakePort } from '../upload/state';
import type { UploadQueueOptions } from './queue/upload-queue';
import type { ServiceConnection } from './service/service-connection';

export function servicePorts(
  service: Pick<ServiceConnection, 'client'>,
): Pick<UploadQueueOptions, 'port' | 'targetPort' | 'finish'> {
  let portOf: { client: ApiClient; port: ExamsPort } | null = null;
  return {
    port: () => {
      const client = service.client;
      if (!client) return null;
      if (portOf?.client !== client) portOf = { client, port: examsPortFromClient(client) };
      return portOf.port;
    },
    targetPort: (target, fields) => (service.client ? extraTakePort(service.client, target, fields) : null),
    finish: async (examId, expirationDays) => {
      const client = service.client;
      if (!client) return { viewer_url: null };
      if (expirationDays !== null) await client.exams.update(examId, { expiration_days: expirationDays });
      const exam = await client.exams.get(examId);
      return { viewer_url: exam.viewer_url ?? null };
    },
  };
}

/**
 * Points the connection at the active key and the service's address. Another key is another
 * account: its notifications are not news of this one. The queue is nudged (a job may wait for a key).
 */
export function serviceConnector<S>(o: {
  service: Pick<ServiceConnection, 'client' | 'configure'>;
  view: { apiUrl(s: S): string; activeKey(s: S): string | null };
  settings: () => S;
  onAccountChange: () => void;
  kick: () => void;
}): (s?: S) => void {
  return (s = o.settings()) => {
    const before = o.service.client;
    o.service.configure(o.view.apiUrl(s) || null, o.view.activeKey(s));
    if (o.service.client !== before) o.onAccountChange();
    o.kick();
  };
}
