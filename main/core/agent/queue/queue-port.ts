// The engine's view of the service for one queued job, resolved at each call: the key in use can
// change (or be removed) while a job waits or runs, and a job must always speak with the current
// one. For an extra take the port is its exam's (upload/target.ts).
import { UploadError } from '../../upload/upload-errors';
import type { ExamFields, ExamsPort } from '../../upload/ports';
import type { UploadTarget } from '../../upload/target';

export type PortSource = {
  /** The port of the key in use, or null when there is none. */
  port: () => ExamsPort | null;
  /** The same for an extra take of an exam; without it, takes cannot be uploaded. */
  targetPort?: ((target: UploadTarget, fields: ExamFields) => ExamsPort | null) | undefined;
};

/**
 * A port that forwards each call to the port current at that moment. `fields` may be a getter: a
 * job reopened from its journal knows its fields only once it is open.
 */
export function lazyPort(source: PortSource, target?: UploadTarget, fields?: ExamFields | (() => ExamFields | undefined)): ExamsPort {
  const current = (): ExamsPort => {
    const f = typeof fields === 'function' ? fields() : fields;
    if (target && (!source.targetPort || !f)) throw new UploadError('rejected', 'Extra takes cannot be uploaded here.');
    const p = target && f && source.targetPort ? source.targetPort(target, f) : source.port();
    if (!p) throw new UploadError('network', 'No API key is in use; the upload waits until one is added.', true);
    return p;
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
