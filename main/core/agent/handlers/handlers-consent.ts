// Informed consent on the contract: the operator's methods (consent:*) and the patient display's
// (patient:*). The core logic lives in core/consent; this file maps the contract onto it.
import { isAbsolute, resolve } from 'node:path';
import type { ConsentSettings } from '../../../../preload/contract';
import { sessionView } from '../../consent/session';
import type { SettingsStore } from '../../settings';
import { SettingsValidationError } from '../../settings';
import type { Handlers } from '../host/contract-host';
import { ContractFailure } from '../host/contract-host';
import type { HandlerContext } from './handler-context';
import { definedFields } from '../../defined';

type ConsentMethod =
  | 'consent:get'
  | 'consent:start'
  | 'consent:display-open'
  | 'consent:display-close'
  | 'consent:email'
  | 'consent:watch'
  | 'consent:unwatch'
  | 'consent:verify'
  | 'consent:pdf'
  | 'consent:displays'
  | 'consent:settings'
  | 'patient:session'
  | 'patient:pdf'
  | 'patient:progress'
  | 'patient:sign';

function updateConsentSettings(store: SettingsStore, change: Partial<ConsentSettings>): void {
  const current = store.get().consent;
  try {
    store.update({ consent: { ...current, ...change } });
  } catch (e) {
    if (e instanceof SettingsValidationError)
      throw new ContractFailure(
        'invalid_args',
        'These settings are not valid.',
        e.issues.map((i) => ({ field: i.path || '(settings)', message: i.message })),
      );
    throw e;
  }
}

export function createConsentHandlers(ctx: HandlerContext): Pick<Handlers, ConsentMethod> {
  const desk = ctx.consent;
  return {
    'consent:get': async (args) => desk.overview(args.exam_id),
    'consent:start': async (args) => desk.start(args.exam_id, args.locale),
    'consent:display-open': async (args) => {
      ctx.service.require();
      return sessionView(await desk.openDisplay(args.exam_id, args.signer_name));
    },
    'consent:display-close': async () => {
      desk.closeDisplay();
      return { ok: true as const };
    },
    'consent:email': async (args) => desk.email(args.exam_id, args.to, args.patient_name),
    'consent:watch': async (args) => {
      ctx.service.require();
      desk.refresher.watch(args.exam_id);
      return { ok: true as const };
    },
    'consent:unwatch': async (args) => {
      desk.refresher.unwatch(args.exam_id);
      return { ok: true as const };
    },
    'consent:verify': async (args) => desk.verify(args.exam_id),
    'consent:pdf': async (args) => ({ pdf_base64: await desk.blankPdf(args.exam_id) }),
    'consent:displays': async () => desk.displays(),
    'consent:settings': async (args) => {
      const change: Partial<ConsentSettings> = definedFields(args, ['country_code', 'display_id']);
      if (args.copies_folder !== undefined) {
        if (args.copies_folder !== null && !isAbsolute(args.copies_folder)) {
          throw new ContractFailure('invalid_args', 'Give the full path of the folder.', [
            { field: 'copies_folder', message: 'must be an absolute path' },
          ]);
        }
        change.copies_folder = args.copies_folder === null ? null : resolve(args.copies_folder);
      }
      updateConsentSettings(ctx.settingsStore, change);
      return ctx.settingsView();
    },

    'patient:session': async (args) => desk.patientSession(args.session_id),
    'patient:pdf': async (args) => ({ pdf_base64: await desk.patientPdf(args.session_id) }),
    'patient:progress': async (args) => {
      desk.patientProgress(args.session_id, args.phase);
      return { ok: true as const };
    },
    'patient:sign': async (args) => {
      await desk.patientSign(args.session_id, args);
      return { ok: true as const };
    },
  };
}
