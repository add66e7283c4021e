// The inbox and the upload queue on the contract: staff's review of a detected study, its upload
// (with this computer's claim on the share), and the controls of the queue.
import type { Claim } from '../../watch';
import type { Handlers } from '../host/contract-host';
import { ContractFailure } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

type InboxMethod = 'inbox:list' | 'inbox:update' | 'inbox:upload' | 'inbox:dismiss';
type UploadMethod =
  'uploads:list' | 'uploads:pause' | 'uploads:resume' | 'uploads:cancel' | 'uploads:retry' | 'uploads:clear-finished';

export function createInboxHandlers(ctx: HandlerContext): Pick<Handlers, InboxMethod> {
  return {
    'inbox:list': async () => ctx.inbox.list(),
    'inbox:update': async (args) => ctx.inbox.update(args.id, args.fields, args.excluded_series),
    'inbox:upload': async (args) => {
      ctx.service.require();
      const item = ctx.inbox.get(args.id);
      if (item.status === 'uploaded') throw new ContractFailure('conflict', 'This study is already uploaded.');
      const request = await ctx.inbox.uploadRequest(args.id, 'review', args.allow_incomplete === true);
      let claim: Claim | null = null;
      if (request.ledger) {
        const c = await ctx.recorder.claimForReview(
          item.id,
          item.export_path,
          request.ledger,
          item.warnings.includes('already_uploaded_changed'),
        );
        if (c.kind === 'done') {
          ctx.inbox.setStatus(args.id, 'uploaded', null);
          throw new ContractFailure('conflict', `Another computer already uploaded this study (exam ${c.exam_id}).`);
        }
        if (c.kind === 'held')
          throw new ContractFailure('conflict', 'Another computer is uploading this study right now.');
        claim = c.claim;
      }
      let view;
      try {
        view = await ctx.queue.enqueue(request);
      } catch (e) {
        await (claim ? claim.release() : ctx.recorder.release(item.id));
        throw e;
      }
      if (claim) ctx.recorder.hold(item.id, claim, () => void ctx.queue.standDown(item.id));
      ctx.inbox.setStatus(args.id, 'queued', view.id);
      return { job_id: view.id };
    },
    'inbox:dismiss': async (args) => {
      ctx.inbox.dismiss(args.id);
      return { ok: true as const };
    },
  };
}

export function createUploadHandlers(ctx: HandlerContext): Pick<Handlers, UploadMethod> {
  return {
    'uploads:list': async () => ctx.queue.list(),
    'uploads:pause': async (args) => ctx.queue.pause(args.id),
    'uploads:resume': async (args) => ctx.queue.resume(args.id),
    'uploads:cancel': async (args) => ctx.queue.cancel(args.id),
    'uploads:retry': async (args) => {
      const view = await ctx.queue.retry(args.id, async (v) =>
        v.inbox_id && ctx.inbox.has(v.inbox_id) ? ctx.inbox.uploadRequest(v.inbox_id, 'review') : null,
      );
      if (view.inbox_id && ctx.inbox.has(view.inbox_id)) ctx.inbox.setStatus(view.inbox_id, 'queued', view.id);
      return view;
    },
    'uploads:clear-finished': async () => ({ removed: ctx.queue.clearFinished() }),
  };
}
