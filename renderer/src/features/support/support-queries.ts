import type { TicketView } from '../../../../preload/contract';
import { useCall, useContractQuery, useRefresh } from '../../app/queries';

export const supportKeys = {
  tickets: ['support-tickets'] as const,
  ticket: (id: string) => ['support-ticket', id] as const,
  diagnostics: ['support-diagnostics'] as const,
};

/** The account's requests; a new one or one found on the service after a lost answer reads them again. */
export const useTickets = () => useContractQuery(supportKeys.tickets, 'support:list', {}, { staleTime: 60_000 });

export const useRefreshTickets = () => useRefresh(supportKeys.tickets);

export const useTicket = (id: string) =>
  useContractQuery(supportKeys.ticket(id), 'support:get', { id }, { staleTime: 60_000 });

/** What is sent along when staff tick "attach diagnostics": read fresh each time it is asked for. */
export const useDiagnostics = (enabled: boolean) =>
  useContractQuery(supportKeys.diagnostics, 'support:diagnostics', {}, { enabled, staleTime: 0 });

export const useCreateTicket = (onCreated: (ticket: TicketView) => void) =>
  useCall({ name: 'support:create' }, (ticket) => onCreated(ticket));
