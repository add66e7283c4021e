import type { UploadJobView, UploadPhase } from '../../../../preload/contract';

export const RUNNING: ReadonlySet<UploadPhase> = new Set(['queued', 'planning', 'creating', 'uploading', 'confirming']);
export const FINISHED: ReadonlySet<UploadPhase> = new Set(['ready', 'cancelled']);

/** What staff can do with a job in its phase. */
export function actionsFor(job: UploadJobView): { pause: boolean; resume: boolean; cancel: boolean; retry: boolean } {
  const running = RUNNING.has(job.phase);
  return {
    pause: running && job.phase !== 'confirming',
    resume: job.phase === 'paused',
    cancel: running || job.phase === 'paused' || job.phase === 'failed',
    retry: job.phase === 'failed',
  };
}

/** Running and paused jobs first, then failed ones, then finished; newest first within each. */
export function sortJobs(jobs: readonly UploadJobView[]): UploadJobView[] {
  const rank = (j: UploadJobView): number =>
    RUNNING.has(j.phase) || j.phase === 'paused' ? 0 : j.phase === 'failed' ? 1 : 2;
  return [...jobs].sort((a, b) => rank(a) - rank(b) || b.created_at.localeCompare(a.created_at));
}

export function phaseColor(phase: UploadPhase): string {
  switch (phase) {
    case 'ready':
      return 'teal';
    case 'failed':
      return 'red';
    case 'paused':
      return 'yellow';
    case 'cancelled':
      return 'gray';
    default:
      return 'blue';
  }
}

/**
 * The error code the window words a job's error by: a network failure that is understood (the
 * proxy's login, a certificate, the clock…) by its own `net_*` code, anything else by its code.
 */
export function jobErrorCode(error: NonNullable<UploadJobView['error']>): string {
  return error.net ? `net_${error.net.kind}` : error.code;
}
