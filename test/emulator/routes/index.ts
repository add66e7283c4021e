import type { App } from '../core/app';
import { register as account } from './account';
import { register as activity } from './activity';
import { register as consent } from './consent';
import { register as control } from './control';
import { register as exams } from './exams';
import { register as extras } from './extras';
import { register as implants } from './implants';
import { register as referrers } from './referrers';
import { register as reports } from './reports';
import { register as sharing } from './sharing';
import { register as storage } from './storage';
import { register as support } from './support';
import { register as templates } from './templates';
import { register as webhooks } from './webhooks';

/** Registers every route module of the emulator. */
export function registerAll(app: App): void {
  for (const register of [
    account,
    exams,
    storage,
    extras,
    sharing,
    consent,
    reports,
    webhooks,
    referrers,
    templates,
    implants,
    support,
    activity,
    control,
  ]) {
    register(app);
  }
}
