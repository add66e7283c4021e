import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { Transport } from '../transport';

const TransportContext = createContext<Transport | null>(null);

export function TransportProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  return <TransportContext.Provider value={transport}>{children}</TransportContext.Provider>;
}

/** The transport chosen at start-up. */
export function useTransport(): Transport {
  const t = useContext(TransportContext);
  if (!t) throw new Error('useTransport outside TransportProvider');
  return t;
}
