// The words for each network failure, in Spanish and English, for the command line and the
// connection check's report (the window has the same texts in its locale files, `errors.net_*`).
import type { NetFailure, NetFailureKind } from './net-failure';
import type { TrustFileError } from './trust';

export type WordsLanguage = 'es' | 'en';

type Words = (host: string, proxy: string, code: string) => string;

const EN: Record<NetFailureKind, Words> = {
  name_not_found: (host) =>
    `The name ${host} was not found. Check the service address in Settings and this computer's internet connection; if other websites open, ask IT whether this network blocks it.`,
  unreachable: (host) =>
    `The connection to ${host} was refused or timed out. Check the internet connection; if it works, ask IT whether a firewall blocks it (or a proxy must be used).`,
  proxy_auth: (_host, proxy, code) =>
    `The proxy ${proxy} refused the login (${code}). Check the proxy user and password in Settings (or in HTTPS_PROXY).`,
  proxy_unreachable: (_host, proxy) =>
    `The proxy ${proxy} cannot be reached or refused the connection. Check the proxy address in Settings (or HTTPS_PROXY), or ask IT.`,
  cert_untrusted: (host) =>
    `This computer does not trust the certificate presented for ${host}. This usually means the network inspects secure connections (a firewall or proxy). Ask IT for the network's root certificate (a .pem or .crt file) and add it in Settings (or SCANBRIDGE_CA_FILE).`,
  cert_invalid: (host) =>
    `The certificate presented for ${host} has expired or belongs to another name. Check the service address; if it is right, ask IT: the network may be redirecting the connection.`,
  clock_wrong: () =>
    `This computer's clock is wrong, so the service's certificate looks invalid. Set the correct date and time (automatic time), then try again.`,
};

const ES: Record<NetFailureKind, Words> = {
  name_not_found: (host) =>
    `No se encontró el nombre ${host}. Revise la dirección del servicio en Ajustes y la conexión a internet de este equipo; si otras páginas abren, pregunte a TI si esta red lo bloquea.`,
  unreachable: (host) =>
    `La conexión con ${host} fue rechazada o no respondió a tiempo. Revise la conexión a internet; si funciona, pregunte a TI si un cortafuegos la bloquea (o si hay que usar un proxy).`,
  proxy_auth: (_host, proxy, code) =>
    `El proxy ${proxy} rechazó el usuario y la contraseña (${code}). Revíselos en Ajustes (o en HTTPS_PROXY).`,
  proxy_unreachable: (_host, proxy) =>
    `No se puede conectar con el proxy ${proxy} o rechazó la conexión. Revise la dirección del proxy en Ajustes (o HTTPS_PROXY), o consulte a TI.`,
  cert_untrusted: (host) =>
    `Este equipo no confía en el certificado presentado por ${host}. Suele deberse a una red que inspecciona las conexiones seguras (un cortafuegos o proxy). Pida a TI el certificado raíz de la red (un archivo .pem o .crt) y agréguelo en Ajustes (o en SCANBRIDGE_CA_FILE).`,
  cert_invalid: (host) =>
    `El certificado presentado por ${host} está vencido o es de otro nombre. Revise la dirección del servicio; si es correcta, consulte a TI: la red podría estar desviando la conexión.`,
  clock_wrong: () =>
    `El reloj de este equipo está mal, por eso el certificado del servicio parece no válido. Corrija la fecha y la hora (hora automática) y vuelva a intentar.`,
};

/** The sentence for `failure`, in `lang`. */
export function netFailureWords(failure: NetFailure, lang: WordsLanguage = 'en'): string {
  return (lang === 'es' ? ES : EN)[failure.kind](failure.host, failure.proxy ?? '', failure.code);
}

const CA_FILE: Record<WordsLanguage, Record<TrustFileError['problem'], (path: string, code: string) => string>> = {
  en: {
    unreadable: (path, code) =>
      `The certificate authority (CA) file ${path} cannot be read (${code}). Check that the file is there and that this computer's user may open it, or choose another file in Settings → Network (or SCANBRIDGE_CA_FILE).`,
    no_certificate: (path) =>
      `The file ${path} holds no certificate (no "BEGIN CERTIFICATE" block). Ask IT for the network's root certificate as a .pem or .crt text file and choose that one in Settings → Network (or SCANBRIDGE_CA_FILE).`,
  },
  es: {
    unreadable: (path, code) =>
      `No se puede leer el archivo de autoridad de certificación (CA) ${path} (${code}). Revise que el archivo exista y que el usuario de este equipo pueda abrirlo, o elija otro archivo en Ajustes → Red (o SCANBRIDGE_CA_FILE).`,
    no_certificate: (path) =>
      `El archivo ${path} no contiene ningún certificado (no hay un bloque «BEGIN CERTIFICATE»). Pida a TI el certificado raíz de la red como archivo de texto .pem o .crt y elíjalo en Ajustes → Red (o SCANBRIDGE_CA_FILE).`,
  },
};

/** The sentence for a CA file that cannot be used, in `lang`. */
export function trustFileWords(e: TrustFileError, lang: WordsLanguage = 'en'): string {
  return CA_FILE[lang][e.problem](e.path, e.code ?? 'error');
}

/** The terminal's language from LC_ALL / LC_MESSAGES / LANG: Spanish when it starts with `es`. */
export function terminalLanguage(env: NodeJS.ProcessEnv): WordsLanguage {
  const tag = env['LC_ALL'] || env['LC_MESSAGES'] || env['LANG'] || '';
  return /^es/i.test(tag) ? 'es' : 'en';
}
