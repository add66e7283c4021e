// The command line's words for the API client's errors (the window has its own, translated, in
// renderer/locales). Plain words in the terminal's language (English or Spanish); never the service's own
// message, which may echo submitted patient data.
import type { ApiError, ApiErrorCode } from '../../api/http';
import type { CredentialsError, CredentialsProblem } from '../../credentials';
import type { KeychainProblem, KeychainUnavailableError } from '../../secrets/keychain-errors';
import { diskFullIn, diskFullWords } from '../../disk-full';
import { netFailureWords, type WordsLanguage } from '../../net/failure-words';
import { type NetFailure, netFailureBehind } from '../../net/net-failure';
import { UploadError } from '../../upload/ports';
import { uploadErrorWords } from './upload-words';

function formatWait(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.ceil(seconds))} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

const TEXTS: Record<ApiErrorCode, (e: ApiError) => string> = {
  unauthorized: () => 'The API key was rejected. Check it in Settings.',
  insufficient_scope: () =>
    'This API key is not allowed to do this. Ask the account holder for a key with the right permissions.',
  forbidden: () => 'The service refused this action for this account.',
  not_found: () => 'The item was not found. It may have been deleted.',
  thumbnail_not_ready: () => 'The preview image is not ready yet. Try again in a minute.',
  validation_error: (e) => {
    const fields = [...new Set(e.details.map((d) => d.field))];
    return fields.length > 0
      ? `Some information is not valid (${fields.join(', ')}). Please correct it and try again.`
      : 'Some information is not valid. Please correct it and try again.';
  },
  conflict: () => 'This action does not fit the current state of the item. Refresh and try again.',
  upload_incomplete: (e) => `${e.missing.length || 'Some'} file(s) have not finished uploading yet.`,
  limit_exceeded: () => 'A limit of the account or of the service was reached (exams, storage or size).',
  plan_required: () => "This feature is not included in the account's plan. Ask the account holder to upgrade.",
  rate_limited: (e) => `Too many requests to the service. Try again in ${formatWait(e.retryAfterSeconds)}.`,
  server_error: () => 'The service had a problem. Try again in a few minutes.',
  network_error: () => 'Cannot reach the service. Check the internet connection.',
  timeout: () => 'The service took too long to answer. Try again.',
  aborted: () => 'The operation was cancelled.',
  invalid_response: () => 'The service sent an unexpected answer. Try again later or contact support.',
  http_error: () => 'The service refused the request.',
};

function formatWaitEs(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.ceil(seconds))} segundos`;
  return `${Math.ceil(seconds / 60)} minutos`;
}

const TEXTS_ES: Record<ApiErrorCode, (e: ApiError) => string> = {
  unauthorized: () => 'El servicio no aceptó la clave de API. Revísela en Ajustes.',
  insufficient_scope: () =>
    'Esta clave de API no tiene permiso para esto. Pida al titular de la cuenta una clave con los permisos necesarios.',
  forbidden: () => 'El servicio rechazó esta acción para esta cuenta.',
  not_found: () => 'No se encontró. Puede que se haya borrado.',
  thumbnail_not_ready: () => 'La vista previa aún no está lista. Vuelva a intentarlo en un minuto.',
  validation_error: (e) => {
    const fields = [...new Set(e.details.map((d) => d.field))];
    return fields.length > 0
      ? `Algunos datos no son válidos (${fields.join(', ')}). Corríjalos y vuelva a intentarlo.`
      : 'Algunos datos no son válidos. Corríjalos y vuelva a intentarlo.';
  },
  conflict: () => 'Esta acción no encaja con el estado actual. Actualice y vuelva a intentarlo.',
  upload_incomplete: (e) => `${e.missing.length || 'Algunos'} archivo(s) aún no terminan de subir.`,
  limit_exceeded: () => 'Se llegó a un límite de la cuenta o del servicio (exámenes, almacenamiento o tamaño).',
  plan_required: () => 'El plan de la cuenta no incluye esta función. Pida al titular de la cuenta que lo mejore.',
  rate_limited: (e) =>
    `Demasiadas solicitudes al servicio. Vuelva a intentarlo en ${formatWaitEs(e.retryAfterSeconds)}.`,
  server_error: () => 'El servicio tuvo un problema. Vuelva a intentarlo en unos minutos.',
  network_error: () => 'No se puede conectar con el servicio. Revise la conexión a internet.',
  timeout: () => 'El servicio tardó demasiado en responder. Vuelva a intentarlo.',
  aborted: () => 'La operación se canceló.',
  invalid_response: () =>
    'El servicio envió una respuesta inesperada. Vuelva a intentarlo más tarde o comuníquese con soporte.',
  http_error: () => 'El servicio rechazó la solicitud.',
};

/**
 * What to print for an API error, in the terminal's language. A network failure that is understood
 * (DNS, proxy login, certificate…) is said in its own words.
 */
export function apiErrorText(e: ApiError, lang: WordsLanguage = 'en'): string {
  if (e.netFailure) return netFailureWords(e.netFailure, lang);
  return (lang === 'es' ? TEXTS_ES : TEXTS)[e.code](e);
}

const CREDENTIALS_ES: Record<CredentialsProblem, string> = {
  no_api_url: 'No hay una dirección del servicio configurada. Configúrela en Ajustes o defina SCANBRIDGE_API_URL.',
  invalid_api_url:
    'La dirección del servicio no es una URL http(s) válida. Revísela en Ajustes o en SCANBRIDGE_API_URL.',
  no_api_key: 'No hay una clave de API configurada. Guarde una en Ajustes o defina SCANBRIDGE_API_KEY.',
};

/** Missing or unusable credentials, in the terminal's language (English: the error's own sentence). */
export function credentialsText(e: CredentialsError, lang: WordsLanguage): string {
  if (lang === 'en') return e.message;
  const text = CREDENTIALS_ES[e.code];
  return e.code === 'no_api_key' && e.message.includes('sandbox')
    ? text.replace('una clave de API', 'una clave de API de prueba (sandbox)')
    : text;
}

const KEYCHAIN_ENV_HINT_ES = 'O defina SCANBRIDGE_API_KEY para esta sesión.';

const KEYCHAIN_MODULE_ES: Partial<Record<NodeJS.Platform, string>> & { linux: string } = {
  win32:
    'El soporte del llavero no está instalado con esta copia de ScanBridge (no se pudo cargar el módulo opcional keytar, que guarda las claves de API en el Administrador de credenciales de Windows), así que no se puede guardar ni leer ninguna clave de API. Reinstale ScanBridge; desde una copia del código fuente, ejecute `npm ci` otra vez en un equipo con las herramientas de compilación de C++ de Visual Studio.',
  darwin:
    'El soporte del llavero no está instalado con esta copia de ScanBridge (no se pudo cargar el módulo opcional keytar, que guarda las claves de API en el llavero de inicio de sesión de macOS), así que no se puede guardar ni leer ninguna clave de API. Reinstale ScanBridge; desde una copia del código fuente, ejecute `xcode-select --install` y luego `npm ci` otra vez.',
  linux:
    'El soporte del llavero no está instalado en este equipo (no se pudo compilar el módulo opcional keytar, normalmente porque faltaban los archivos de desarrollo de libsecret durante `npm ci`), así que no se puede guardar ni leer ninguna clave de API. Instale libsecret-1-dev y ejecute `npm ci` otra vez.',
};

const KEYCHAIN_ES: Record<KeychainProblem, (timeoutMs: number) => string> = {
  no_dbus: () =>
    'No se puede acceder al llavero del sistema: no hay una sesión de escritorio (D-Bus). Inicie una sesión de escritorio.',
  no_keyring_service: () =>
    'No hay ningún servicio de llavero instalado o en marcha (por ejemplo GNOME Keyring o KWallet). Instale o inicie uno.',
  timeout: (ms) =>
    `El llavero del sistema no respondió en ${Math.round(ms / 1000)} s. Compruebe que el servicio de llavero esté en marcha y desbloqueado.`,
  locked: () =>
    'El llavero del sistema está bloqueado o no tiene un llavero por omisión. Desbloquéelo (inicie sesión de nuevo) y vuelva a intentarlo.',
  module_unavailable: () => KEYCHAIN_MODULE_ES[process.platform] ?? KEYCHAIN_MODULE_ES.linux,
  unknown: () => 'El llavero del sistema informó un error.',
};

/** Why the OS keychain cannot be used, in the terminal's language (English: the error's own sentence). */
export function keychainText(e: KeychainUnavailableError, lang: WordsLanguage): string {
  if (lang === 'en') return e.message;
  return `${KEYCHAIN_ES[e.problem](e.timeoutMs)} ${KEYCHAIN_ENV_HINT_ES}`;
}

/** Why a folder given on the command line cannot be used, in the terminal's language. */
export type FolderProblem = { kind: 'not_found' | 'not_folder' | 'unreadable'; path: string; code?: string };

export function folderProblemText(p: FolderProblem, lang: WordsLanguage): string {
  const denied = p.code === 'EACCES' || p.code === 'EPERM';
  if (lang === 'es') {
    if (p.kind === 'not_found') return `no se encontró la carpeta: ${p.path}`;
    if (p.kind === 'not_folder') return `no es una carpeta: ${p.path}`;
    return `no se puede leer la carpeta: ${p.path} (${denied ? 'permiso denegado' : p.code})`;
  }
  if (p.kind === 'not_found') return `folder not found: ${p.path}`;
  if (p.kind === 'not_folder') return `not a folder: ${p.path}`;
  return `cannot read folder: ${p.path} (${denied ? 'permission denied' : p.code})`;
}

/** The network failure behind an error, through its causes (an upload's error wraps the API client's). */
export function netFailureIn(err: unknown): NetFailure | null {
  return netFailureBehind(err);
}

const RUN_AGAIN: Record<WordsLanguage, string> = {
  en: 'Then run the upload again to continue.',
  es: 'Luego vuelva a ejecutar la subida para continuar.',
};

/**
 * What `scanbridge upload` prints for the error that stopped it, in the terminal's language: a
 * network failure (DNS, proxy login, certificate, clock…) in its own words, an upload's failure in
 * its code's (upload-words.ts).
 */
export function uploadFailureText(err: Error, lang: WordsLanguage): string {
  const full = diskFullIn(err);
  if (full) return `${diskFullWords(full.folder, full.needed, lang)} ${RUN_AGAIN[lang]}`;
  const net = netFailureIn(err);
  if (net) return `${netFailureWords(net, lang)} ${RUN_AGAIN[lang]}`;
  return err instanceof UploadError ? uploadErrorWords(err, lang) : err.message;
}
