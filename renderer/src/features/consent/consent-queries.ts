import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ConsentEmailView, ConsentOverview, ContractError, MethodResult } from '../../../../preload/contract';
import { useCall, useRefresh } from '../../app/queries';
import { useTransport } from '../../app/transport-context';

export const consentKeys = {
  overview: (examId: string) => ['consent', examId] as const,
  verification: (examId: string) => ['consent', examId, 'verification'] as const,
  blank: (examId: string) => ['consent', examId, 'blank'] as const,
};

/** The exam, its consent and the patient-display session, read when the panel opens. */
export function useConsentOverview(examId: string) {
  const t = useTransport();
  return useQuery<ConsentOverview, ContractError>({
    queryKey: consentKeys.overview(examId),
    queryFn: () => t.call('consent:get', { exam_id: examId }),
    staleTime: 60_000,
  });
}

/** Keeps the panel's cache in step with what main pushes (signed in person, found signed, the patient's progress). */
export function useConsentEvents(examId: string): void {
  const t = useTransport();
  const qc = useQueryClient();
  useEffect(() => {
    const update = (change: (o: ConsentOverview) => ConsentOverview): void => {
      qc.setQueryData<ConsentOverview>(consentKeys.overview(examId), (old) => (old ? change(old) : old));
    };
    const offStatus = t.on('consent:status', (e) => {
      if (e.exam_id === examId) update((o) => ({ ...o, consent: e.consent }));
    });
    const offSession = t.on('consent:session', (s) =>
      update((o) => ({ ...o, session: s && s.exam_id === examId ? s : null })),
    );
    return () => {
      offStatus();
      offSession();
    };
  }, [t, qc, examId]);
}

/** While the panel is open and the consent pending, main looks at its status now and then (see status-refresher.ts). */
export function useConsentWatch(examId: string, pending: boolean): void {
  const t = useTransport();
  useEffect(() => {
    if (!pending) return;
    t.call('consent:watch', { exam_id: examId }).catch(() => undefined);
    return () => {
      t.call('consent:unwatch', { exam_id: examId }).catch(() => undefined);
    };
  }, [t, examId, pending]);
}

/** The signed PDF, checked against the service's hash: once per exam (it never changes). */
export function useVerification(examId: string, signed: boolean) {
  const t = useTransport();
  return useQuery<MethodResult<'consent:verify'>, ContractError>({
    queryKey: consentKeys.verification(examId),
    queryFn: () => t.call('consent:verify', { exam_id: examId }),
    enabled: signed,
    staleTime: Infinity,
    retry: 0,
  });
}

export function useBlankPdf(examId: string, enabled: boolean) {
  const t = useTransport();
  return useQuery<MethodResult<'consent:pdf'>, ContractError>({
    queryKey: consentKeys.blank(examId),
    queryFn: () => t.call('consent:pdf', { exam_id: examId }),
    enabled,
    staleTime: 10 * 60_000,
  });
}

/** Opens the consent on the patient's display, or closes it; its progress comes back as pushed events. */
export const useOpenDisplay = () => useCall({ name: 'consent:display-open' });
export const useCloseDisplay = () => useCall({ name: 'consent:display-close' });

export const useEmailConsent = (onDone: (sent: ConsentEmailView) => void) =>
  useCall({ name: 'consent:email' }, (r) => onDone(r));

/** Starts the exam's consent; the panel's cache takes its new state at once. */
export const useStartConsent = (examId: string, onDone: (result: MethodResult<'consent:start'>) => void) =>
  useCall({ name: 'consent:start' }, (r, qc) => {
    onDone(r);
    qc.setQueryData<ConsentOverview>(consentKeys.overview(examId), (old) =>
      old ? { ...old, consent: r.consent } : old,
    );
  });

/** Reads the panel again (after a lost answer the service says the consent did change). */
export const useRefreshConsent = (examId: string) => useRefresh(consentKeys.overview(examId));
