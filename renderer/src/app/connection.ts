import { useEffect, useState } from 'react';
import type { ConnectionState } from '../transport';
import { useTransport } from './transport-context';

/** Whether the event stream to the core is up (browser mode can lose it when the server stops). */
export function useConnectionState(): ConnectionState {
  const t = useTransport();
  const [state, setState] = useState<ConnectionState>('open');
  useEffect(() => t.onConnection(setState), [t]);
  return state;
}
