// A job's error as its view shows it: the upload's stable code and message and, when a network
// failure that is understood stopped it, that failure (so the CLI's printers and the window can
// say it in their own language).
import type { UploadJobView } from '../../../../preload/contract';
import { netFailureBehind } from '../../net/net-failure';
import type { UploadError } from '../../upload/ports';

export function jobError(u: UploadError): NonNullable<UploadJobView['error']> {
  const net = netFailureBehind(u);
  return net ? { code: u.code, message: u.message, net } : { code: u.code, message: u.message };
}
