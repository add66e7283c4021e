// Every method of the contract, on the agent's services: one module per domain in this folder, each
// given the shared context (handler-context.ts). Arguments arrive already parsed with the method's
// schema (host/contract-host.ts); what they name (folders, items, jobs) is checked by the handlers.
import type { Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';
import { createActivityHandlers } from './handlers-activity';
import { createConsentHandlers } from './handlers-consent';
import { createReferrersHandlers } from './handlers-referrers';
import { createExamsHandlers } from './handlers-exams';
import { createImplantsHandlers } from './handlers-implants';
import { createReceiveHandlers } from './handlers-receive';
import { createNetworkHandlers } from './handlers-network';
import { createReportsHandlers } from './handlers-reports';
import { createFolderHandlers, createKeyHandlers, createSettingsHandlers } from './handlers-settings';
import { createHandoutHandlers } from './handlers-handout';
import { createShareHandlers } from './handlers-share';
import { createSupportHandlers } from './handlers-support';
import { createTakesHandlers } from './handlers-takes';
import { createTemplatesHandlers } from './handlers-templates';
import { createInboxHandlers, createUploadHandlers } from './handlers-uploads';
import { createCopiesHandlers } from './handlers-copies';
import { createWebhooksHandlers } from './handlers-webhooks';
import { checkOutcome } from './outcome-check';

export type { HandlerContext } from './handler-context';

/** The contract's handlers. */
export function createHandlers(ctx: HandlerContext): Handlers {
  return {
    ...createSettingsHandlers(ctx),
    ...createFolderHandlers(ctx),
    ...createKeyHandlers(ctx),
    ...createInboxHandlers(ctx),
    ...createCopiesHandlers(ctx),
    ...createUploadHandlers(ctx),
    ...createSupportHandlers(ctx),
    ...createActivityHandlers(ctx),
    ...createWebhooksHandlers(ctx),
    ...createTakesHandlers(ctx),
    ...createConsentHandlers(ctx),
    ...createReferrersHandlers(ctx),
    ...createTemplatesHandlers(ctx),
    ...createImplantsHandlers(ctx),
    ...createExamsHandlers(ctx),
    ...createShareHandlers(ctx),
    ...createHandoutHandlers(ctx),
    ...createReportsHandlers(ctx),
    ...createReceiveHandlers(ctx),
    ...createNetworkHandlers(ctx),
    // After a lost answer, the window's one look at what the service holds (outcome-check.ts).
    'outcome:check': async (args) => checkOutcome(ctx.service.require(), args),
  };
}
