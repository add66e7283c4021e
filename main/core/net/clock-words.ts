// A local clock that is off from the service's, said in words (Spanish and English) for the command
// line, the connection check and the upload's notices. Uploads work whatever the clock says (the
// service's own times decide, api/service-clock.ts); the clock is still worth setting right, since
// file dates, logs and certificates are judged by it.
import { t, type Language } from '../i18n';

/** "2 days", "3 hours", "25 minutes" (to the nearest unit, at least one minute), in `lang`. */
export function spanWords(ms: number, lang: Language): string {
  const minutes = Math.max(1, Math.round(Math.abs(ms) / 60_000));
  if (minutes >= 2 * 1440) return t(lang, 'core.clock.day', { count: Math.round(minutes / 1440) });
  if (minutes >= 120) return t(lang, 'core.clock.hour', { count: Math.round(minutes / 60) });
  return t(lang, 'core.clock.minute', { count: minutes });
}

/** The sentence for a local clock `localMinusService` ms off the service's. */
export function clockSkewWords(localMinusService: number, lang: Language = 'en'): string {
  const span = spanWords(localMinusService, lang);
  return t(lang, localMinusService > 0 ? 'core.clock.ahead' : 'core.clock.behind', { span });
}
