import '@mantine/core/styles.css';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n, languageOfLocale } from './app/i18n';
import { NoTransport } from './app/no-transport';
import { PatientApp } from './features/patient-display/patient-app';
import { isPatientPage, selectPatientTransport } from './features/patient-display/patient-transport';
import { selectTransport } from './transport';

// The OS language until the settings answer (they may say otherwise).
initI18n(languageOfLocale(navigator.language));
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root');
if (isPatientPage(window)) {
  // The patient display: its own small transport (a token bound to one consent session, or its own preload).
  const patient = selectPatientTransport(window);
  createRoot(rootElement).render(
    <StrictMode>{patient ? <PatientApp transport={patient} /> : <NoTransport />}</StrictMode>,
  );
} else {
  const transport = selectTransport(window);
  createRoot(rootElement).render(
    <StrictMode>{transport ? <App transport={transport} /> : <NoTransport />}</StrictMode>,
  );
}
