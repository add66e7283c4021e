// The exam workspace's service data, cached per resource. Every read spends the key's hourly
// allowance (Free plan: 100), so each resource has a stale time that fits how often it changes, and
// sub-resources (PIN, embed, report) load only when their panel is open.
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type {
  ContractError,
  EmbedView,
  ExamPage,
  ExamView,
  MethodArgs,
  MethodName,
  MethodResult,
  ReportView,
} from '../../../../preload/contract';
import { keys, useCall, useRefresh } from '../../app/queries';
import { useTransport } from '../../app/transport-context';

/** Exams fetched per list page (the API allows up to 100); one page per scroll step. */
export const PAGE_SIZE = 50;

const MINUTE = 60_000;

/** How long each resource is fresh; a panel reopened within this costs no call. */
export const staleTimes = {
  list: 30_000,
  exam: MINUTE,
  /** A thumbnail never changes once generated. */
  thumbnail: Infinity,
  patientExams: 5 * MINUTE,
  /** The clinic's public page address is the same for every exam of the account. */
  publicPage: Infinity,
  embed: MINUTE,
  report: MINUTE,
  reportPdf: 5 * MINUTE,
  referrers: 10 * MINUTE,
} as const;

/** Seconds between two tries of a thumbnail that is not generated yet, and how many tries at most. */
export const THUMBNAIL_RETRY_MS = MINUTE;
export const THUMBNAIL_MAX_TRIES = 10;

export const examKeys = {
  all: ['exams'] as const,
  list: ['exams', 'list'] as const,
  exam: (id: string) => ['exams', 'exam', id] as const,
  thumbnail: (id: string) => ['exams', 'thumbnail', id] as const,
  patientExams: (id: string) => ['exams', 'patient-exams', id] as const,
  publicPage: ['exams', 'public-page'] as const,
  embed: (id: string) => ['exams', 'embed', id] as const,
  report: (id: string) => ['exams', 'report', id] as const,
  reportPdf: (id: string) => ['exams', 'report-pdf', id] as const,
  shareOnReady: (id: string) => ['exams', 'share-on-ready', id] as const,
  // Shared with the referrers screen, so a dentist added there is offered here at once.
  referrers: ['referrers'] as const,
};

function useServiceQuery<M extends MethodName>(
  key: readonly unknown[],
  name: M,
  args: MethodArgs<M>,
  staleTime: number,
  enabled = true,
) {
  const t = useTransport();
  return useQuery<MethodResult<M>, ContractError>({
    queryKey: key,
    queryFn: () => t.call(name, args),
    staleTime,
    enabled,
    retry: 0,
  });
}

/** The account's exams, newest first, page by page. */
export function useExamPages() {
  const t = useTransport();
  return useInfiniteQuery<ExamPage, ContractError>({
    queryKey: examKeys.list,
    queryFn: ({ pageParam }) => t.call('exams:list', { limit: PAGE_SIZE, offset: pageParam as number }),
    initialPageParam: 0,
    getNextPageParam: (last) =>
      last.offset + last.exams.length < last.total && last.exams.length > 0
        ? last.offset + last.exams.length
        : undefined,
    staleTime: staleTimes.list,
    retry: 0,
  });
}

export const useExam = (id: string) => useServiceQuery(examKeys.exam(id), 'exams:get', { id }, staleTimes.exam);
export const usePatientExams = (id: string) =>
  useServiceQuery(examKeys.patientExams(id), 'exams:patient-exams', { id }, staleTimes.patientExams);
export const usePublicPage = (examId: string) =>
  useServiceQuery(examKeys.publicPage, 'share:public-page', { exam_id: examId }, staleTimes.publicPage);
export const useEmbed = (examId: string) =>
  useServiceQuery(examKeys.embed(examId), 'share:embed', { exam_id: examId }, staleTimes.embed);
export const useReport = (examId: string) =>
  useServiceQuery(examKeys.report(examId), 'reports:get', { exam_id: examId }, staleTimes.report);
export const useReportPdf = (examId: string, enabled: boolean) =>
  useServiceQuery(examKeys.reportPdf(examId), 'reports:pdf', { exam_id: examId }, staleTimes.reportPdf, enabled);
/** The e-mail the exam's upload asked for (share-on-ready); read from this computer, no service call. */
export const useShareOnReady = (examId: string) =>
  useServiceQuery(examKeys.shareOnReady(examId), 'share:on-ready', { exam_id: examId }, 10_000);
export const useReferrers = () => useServiceQuery(examKeys.referrers, 'referrers:list', {}, staleTimes.referrers);

/** The thumbnail; while the service is still generating it, asked again every minute (a few times). */
export function useThumbnail(id: string) {
  const t = useTransport();
  return useQuery<MethodResult<'exams:thumbnail'>, ContractError>({
    queryKey: examKeys.thumbnail(id),
    queryFn: () => t.call('exams:thumbnail', { id }),
    staleTime: staleTimes.thumbnail,
    retry: 0,
    refetchInterval: (q) =>
      q.state.data && !q.state.data.ready && q.state.dataUpdateCount < THUMBNAIL_MAX_TRIES ? THUMBNAIL_RETRY_MS : false,
  });
}

/** Puts a changed exam in its cache and marks the list stale without fetching it now. */
export function storeExam(qc: QueryClient, exam: ExamView): void {
  qc.setQueryData(examKeys.exam(exam.id), exam);
  void qc.invalidateQueries({ queryKey: examKeys.list, refetchType: 'none' });
}

/** Puts an exam the window learnt of otherwise (a lost answer looked up) in its cache. */
export function useStoreExam(): (exam: ExamView) => void {
  const qc = useQueryClient();
  return (exam) => storeExam(qc, exam);
}

/** Forgets a deleted exam everywhere. */
export function forgetExam(qc: QueryClient, id: string): void {
  qc.setQueryData<{ pages: ExamPage[]; pageParams: unknown[] }>(examKeys.list, (old) =>
    old
      ? {
          ...old,
          pages: old.pages.map((p) => ({
            ...p,
            exams: p.exams.filter((e) => e.id !== id),
            total: Math.max(0, p.total - 1),
          })),
        }
      : old,
  );
  for (const key of [
    examKeys.exam(id),
    examKeys.thumbnail(id),
    examKeys.patientExams(id),
    examKeys.embed(id),
    examKeys.report(id),
    examKeys.reportPdf(id),
  ])
    qc.removeQueries({ queryKey: key });
}

/** Deletes the exam: forgotten everywhere, and the account's exam count read again; `onDone` follows. */
export const useDeleteExam = (id: string, onDone: (result: MethodResult<'exams:delete'>) => void) =>
  useCall({ name: 'exams:delete' }, (result, qc) => {
    forgetExam(qc, id);
    void qc.invalidateQueries({ queryKey: keys.account });
    onDone(result);
  });

export const useUpdateExam = (onDone: (exam: ExamView) => void) =>
  useCall({ name: 'exams:update' }, (result, qc) => {
    storeExam(qc, result);
    onDone(result);
  });

/** E-mails the exam; a sent e-mail moves the exam's share counter, worth one call to show it right. */
export const useShareEmail = (
  examId: string,
  onDone: (result: MethodResult<'share:email'>, args: MethodArgs<'share:email'>) => void,
) =>
  useCall({ name: 'share:email' }, (r, qc, args) => {
    onDone(r, args);
    if (r.sent) void qc.invalidateQueries({ queryKey: examKeys.exam(examId) });
  });

/** A new PIN for the public page: the exam carries it, so the cached exam takes it at once. */
export const useRotatePin = (exam: ExamView, onDone: () => void) =>
  useCall({ name: 'share:rotate-pin' }, (r, qc) => {
    storeExam(qc, { ...exam, public_page_pin: r.pin });
    onDone();
  });

const storeEmbed = (qc: QueryClient, examId: string, token: string | null, snippet: string | null): void => {
  qc.setQueryData<EmbedView>(examKeys.embed(examId), (old) => ({
    enabled: token !== null,
    token,
    snippet,
    view_count: old?.view_count ?? 0,
  }));
};

export const useEnableEmbed = (examId: string, onDone: () => void) =>
  useCall({ name: 'share:embed-enable' }, (r, qc) => {
    storeEmbed(qc, examId, r.token, r.iframe_snippet);
    onDone();
  });

export const useRevokeEmbed = (examId: string, onDone: () => void) =>
  useCall({ name: 'share:embed-revoke' }, (_r, qc) => {
    storeEmbed(qc, examId, null, null);
    onDone();
  });

/** Reads the embed again (after a lost answer the service says it did turn on). */
export const useRefreshEmbed = (examId: string) => useRefresh(examKeys.embed(examId));
/** Reads the report again (after a lost answer the service says it did change). */
export const useRefreshReport = (examId: string) => useRefresh(examKeys.report(examId));

export const useSignReport = (examId: string, onDone: () => void) =>
  useCall({ name: 'reports:sign' }, (s, qc) => {
    qc.setQueryData<{ report: ReportView | null }>(examKeys.report(examId), (old) =>
      old?.report ? { report: { ...old.report, signed: true, signature: s } } : old,
    );
    onDone();
  });

/** The report's PDF is dropped with the report it showed. */
export const useDeleteReport = (examId: string, onDone: () => void) =>
  useCall({ name: 'reports:delete' }, (_r, qc) => {
    qc.setQueryData(examKeys.report(examId), { report: null });
    qc.removeQueries({ queryKey: examKeys.reportPdf(examId) });
    onDone();
  });

export const useUploadReport = (examId: string, onDone: () => void) =>
  useCall({ name: 'reports:upload' }, (r, qc) => {
    qc.setQueryData(examKeys.report(examId), r);
    qc.removeQueries({ queryKey: examKeys.reportPdf(examId) });
    onDone();
  });

/** The patient's sheet: opened in the system's PDF viewer (desktop) or handed over as a download. */
export const useHandout = (onDone: (result: MethodResult<'share:handout'>) => void) =>
  useCall({ name: 'share:handout' }, (r) => onDone(r));
