import { useCall, useContractQuery, useRefresh } from '../../app/queries';

export const takesKey = (examId: string) => ['takes', examId] as const;

/** The exam's takes change only when this app adds one: a minute's staleness costs nothing. */
const STALE_MS = 60_000;

export const useTakes = (examId: string) =>
  useContractQuery(takesKey(examId), 'takes:get', { exam_id: examId }, { staleTime: STALE_MS, enabled: examId !== '' });

/** Reads the exam's takes again (one call): after a take is queued, and when its upload is ready. */
export const useRefreshTakes = (examId: string) => useRefresh(takesKey(examId));

/** Queues a take's files in the upload queue. */
export const useAddTake = (onQueued: () => void) => useCall({ name: 'takes:add' }, () => onQueued());
