// Texts the core itself shows (OS notifications, tray), in the app's two languages.
import type { Language } from '../../../../preload/contract';

type Texts = {
  examReadyTitle: string;
  examReadyBody: (name: string) => string;
  uploadFailedTitle: string;
  uploadFailedBody: (name: string) => string;
  uploadRetryingTitle: string;
  uploadRetryingBody: (name: string) => string;
  trayOpen: string;
  trayQuit: string;
  trayIdle: string;
  trayUploading: string;
  trayError: string;
};

const TEXTS: Record<Language, Texts> = {
  es: {
    examReadyTitle: 'Examen listo',
    examReadyBody: (n) => `«${n}» se subió y ya se puede compartir.`,
    uploadFailedTitle: 'La subida falló',
    uploadFailedBody: (n) => `«${n}» no se pudo subir. Abra ScanBridge para ver qué hacer.`,
    uploadRetryingTitle: 'Subida en espera',
    uploadRetryingBody: (n) => `«${n}» no puede llegar al servicio; ScanBridge reintentará solo.`,
    trayOpen: 'Abrir ScanBridge',
    trayQuit: 'Salir',
    trayIdle: 'ScanBridge: sin subidas en curso',
    trayUploading: 'ScanBridge: subiendo exámenes…',
    trayError: 'ScanBridge: una subida necesita atención',
  },
  en: {
    examReadyTitle: 'Exam ready',
    examReadyBody: (n) => `“${n}” was uploaded and can be shared.`,
    uploadFailedTitle: 'Upload failed',
    uploadFailedBody: (n) => `“${n}” could not be uploaded. Open ScanBridge to see what to do.`,
    uploadRetryingTitle: 'Upload waiting',
    uploadRetryingBody: (n) => `“${n}” cannot reach the service; ScanBridge will keep retrying.`,
    trayOpen: 'Open ScanBridge',
    trayQuit: 'Quit',
    trayIdle: 'ScanBridge: no uploads running',
    trayUploading: 'ScanBridge: uploading exams…',
    trayError: 'ScanBridge: an upload needs attention',
  },
};

/** The core's texts in `language`. */
export function texts(language: Language): Texts {
  return TEXTS[language];
}

/** The language from a locale string such as `es-CL` or `en_US.UTF-8` (Spanish or English only). */
export function languageOfLocale(locale: string | undefined): Language {
  return (locale ?? '').toLowerCase().startsWith('es') ? 'es' : 'en';
}

/** The OS language as Node sees it (LANG/LC_ALL, else ICU's default locale). */
export function systemLanguage(env: NodeJS.ProcessEnv = process.env): Language {
  const fromEnv = env['LC_ALL'] || env['LC_MESSAGES'] || env['LANG'];
  return languageOfLocale(
    fromEnv && fromEnv !== 'C' && fromEnv !== 'POSIX' ? fromEnv : Intl.DateTimeFormat().resolvedOptions().locale,
  );
}
