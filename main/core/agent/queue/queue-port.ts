// The engine's view of the service for one queued job, resolved at each call: the key in use can
// change (or be removed) while a job waits or runs, and a job must always speak with the current
// one. For an extra take the port is its exam's (upload/target.ts).
import { type ExamFields, type ExamsPort, UploadError } from '../../upload/ports';
import type { UploadTarget } from '../../upload/state';

export type PortSource = {
  /** The port of the key in use, or null when there is none: the same object while that key stays in use. */
  port: () => ExamsPort | null;
  /** The same for an extra take of an exam; without it, takes cannot be uploaded. */
  targetPort?: ((target: UploadTarget, fields: ExamFields) => ExamsPort | null) | undefined;
};

/**
 * A port that forwards each call to the port current at that moment. `fields` may be a getter: a
 * job reopened from its journal knows its fields only once it is open.
 *
 * An extra take's port remembers what the job's orphan search found (upload/target.ts), so it is
 * built once per job and key in use, never per call: rebuilt, it would forget the lost take and let
 * the job announce a second one in its place.
 */
export function lazyPort(
  source: PortSource,
  target?: UploadTarget,
  fields?: ExamFields | (() => ExamFields | undefined),
): ExamsPort {
  let take: { base: ExamsPort; port: ExamsPort } | null = null;
  const current = (): ExamsPort => {
    const f = typeof fields === 'function' ? fields() : fields;
    if (target && (!source.targetPort || !f)) throw new UploadError('rejected', 'Extra takes cannot be uploaded here.');
    const base = source.port();
    if (!base) throw new UploadError('network', 'No API key is in use; the upload waits until one is added.', true);
    if (!target || !f || !source.targetPort) return base;
    if (take?.base !== base) {
      const port = source.targetPort(target, f);
      if (!port) throw new UploadError('network', 'No API key is in use; the upload waits until one is added.', true);
      take = { base, port };
    }
    return take.port;
  };
  return {
    createExam: (i, o) => current().createExam(i, o),
    confirmExam: (id, o) => current().confirmExam(id, o),
    processZip: (id, o) => current().processZip(id, o),
    deleteExam: (id, o) => current().deleteExam(id, o),
    getExam: (id, o) => current().getExam(id, o),
    listRecentExams: (n, o) => current().listRecentExams(n, o),
  };
}
