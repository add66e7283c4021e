// `share:handout`: the patient's printed sheet (handover/patient-sheet.ts) on the paper of the
// settings. The desktop prints it through the system's print dialog; the window always gets the
// bytes too (browser mode downloads them, as does the desktop when the dialog could not be shown).
import { HandoutUnavailableError, readHandoutData } from '../../handout/handout-data';
import { renderHandout } from '../../handout/handout-pdf';
import { t } from '../../i18n';
import { ContractFailure, type Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

/** A file name without the patient's name (it may end up in a downloads folder or a print queue). */
export function handoutFileName(examId: string, language: string): string {
  const safe = examId.replace(/[^A-Za-z0-9_-]/g, '_');
  return t(language === 'es' ? 'es' : 'en', 'core.handout.fileName', { id: safe });
}

export function createHandoutHandlers(ctx: HandlerContext): Pick<Handlers, 'share:handout' | 'share:on-ready'> {
  return {
    'share:on-ready': (args) => ctx.shares.status(args.exam_id),
    'share:handout': async (args) => {
      let data;
      try {
        data = await readHandoutData(ctx.service.require(), args.exam_id);
      } catch (e) {
        if (e instanceof HandoutUnavailableError)
          throw new ContractFailure(
            'conflict',
            e.code === 'not_ready'
              ? 'The exam is not ready yet: the sheet can be printed once it is.'
              : 'The service gave no public page or PIN for this exam.',
          );
        throw e;
      }
      const sheet = await renderHandout(data, {
        language: args.language,
        paper: ctx.settingsStore.get().handout.paper,
      });
      const file_name = handoutFileName(args.exam_id, args.language);
      const opened = args.open ? await ctx.documentOpener({ name: file_name, bytes: sheet.bytes }) : false;
      return { pdf_base64: Buffer.from(sheet.bytes).toString('base64'), file_name, opened };
    },
  };
}
