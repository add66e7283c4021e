import '@mantine/core/styles.css';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n, languageOfLocale } from './app/i18n';
import { NoTransport } from './app/no-transport';
import { selectTransport } from './transport';

// The OS language until the settings answer (they may say otherwise).
initI18n(languageOfLocale(navigator.language));
const transport = selectTransport(window);
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root');
createRoot(rootElement).render(<StrictMode>{transport ? <App transport={transport} /> : <NoTransport />}</StrictMode>);
