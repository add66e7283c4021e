// The Inbox's list of copies of already uploaded studies found again (inbox/skipped-copies.ts).
import type { Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

export function createCopiesHandlers(ctx: HandlerContext): Pick<Handlers, 'inbox:copies' | 'inbox:copy-dismiss'> {
  return {
    'inbox:copies': async () => ctx.copies.current,
    'inbox:copy-dismiss': async (args) => {
      ctx.copies.dismiss(args.study_uid, args.export_path);
      return ctx.copies.current;
    },
  };
}
