// A local clock that is off from the service's, said in words (Spanish and English) for the command
// line, the connection check and the upload's notices. Uploads work whatever the clock says (the
// service's own times decide, api/service-clock.ts); the clock is still worth setting right, since
// file dates, logs and certificates are judged by it.
import type { Language } from '../i18n';

/** "2 days", "3 hours", "25 minutes" (to the nearest unit, at least one minute), in `lang`. */
export function spanWords(ms: number, lang: Language): string {
  const minutes = Math.max(1, Math.round(Math.abs(ms) / 60_000));
  const [n, unit] =
    minutes >= 2 * 1440
      ? [Math.round(minutes / 1440), 'day']
      : minutes >= 120
        ? [Math.round(minutes / 60), 'hour']
        : [minutes, 'minute'];
  const es: Record<string, [string, string]> = {
    day: ['día', 'días'],
    hour: ['hora', 'horas'],
    minute: ['minuto', 'minutos'],
  };
  if (lang === 'es') return `${n} ${(es[unit] ?? ['', ''])[n === 1 ? 0 : 1]}`;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The sentence for a local clock `localMinusService` ms off the service's. */
export function clockSkewWords(localMinusService: number, lang: Language = 'en'): string {
  const span = spanWords(localMinusService, lang);
  const ahead = localMinusService > 0;
  return lang === 'es'
    ? `El reloj de este equipo está ${span} ${ahead ? 'adelantado' : 'atrasado'} respecto del servicio. Las subidas siguen funcionando, pero corrija la fecha y la hora (hora automática): las fechas de los archivos y de los registros dependen de él.`
    : `This computer's clock is ${span} ${ahead ? 'ahead of' : 'behind'} the service's. Uploads still work, but set the correct date and time (automatic time): file dates and logs depend on it.`;
}
