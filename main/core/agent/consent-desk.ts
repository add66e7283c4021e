// The informed-consent desk as the agent runs it: on the active key's client, with the saved consent
// settings and the core's language, its status and session pushed as contract events, its status
// refreshes in the background scheduler, and the patient display the host gives (the desktop's second
// window) or, in browser mode, the patient page.
import type { Language } from '../../../preload/contract';
import type { PatientDisplayPort } from '../consent/desk';
import { ConsentDesk, pagePatientDisplay } from '../consent/desk';
import type { SettingsStore } from '../settings';
import type { PollScheduler } from './background/poll-scheduler';
import type { EventHub } from './host/event-hub';
import type { ServiceConnection } from './service/service-connection';

export function openConsentDesk(o: {
  service: Pick<ServiceConnection, 'require'>;
  settingsStore: Pick<SettingsStore, 'get'>;
  dataDir: string;
  language: () => Language;
  events: Pick<EventHub, 'emit'>;
  poll: PollScheduler;
  patientDisplay?: PatientDisplayPort | undefined;
  patientPageOrigin?: (() => string | null) | undefined;
}): ConsentDesk {
  return new ConsentDesk({
    client: () => o.service.require(),
    settings: () => o.settingsStore.get().consent,
    dataDir: o.dataDir,
    language: o.language,
    display: o.patientDisplay ?? pagePatientDisplay(o.patientPageOrigin ?? (() => null)),
    emitStatus: (exam_id, c) => o.events.emit('consent:status', { exam_id, consent: c }),
    emitSession: (s) => o.events.emit('consent:session', s),
    poller: o.poll,
  });
}
