import { Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { UploadCompressionView, UploadJobView } from '../../../../preload/contract';
import { formatBytes, formatDuration, formatRate, percent } from '../../components/format';
import { useLanguage } from '../../components/use-language';

/** "2.0" / "2,0": how many times smaller, one decimal in the reader's language. */
function ratioText(ratio: number | null, lang: 'es' | 'en'): string {
  return new Intl.NumberFormat(lang === 'es' ? 'es-CL' : 'en-US', {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(ratio ?? 1);
}

/**
 * A compressed upload's progress value: the study deflated while compressing before the exam
 * exists, then the archive sent (also while the rest is still being compressed).
 */
export function compressedProgress(job: UploadJobView, c: UploadCompressionView): number {
  if (job.phase === 'ready') return 100;
  return c.state === 'compressing'
    ? percent(c.study_bytes_done, c.study_bytes)
    : percent(job.bytes_sent, job.bytes_total);
}

/** The badge of a job that is compressing: "Compressing (2.3× smaller)". */
export function compressingBadge(t: TFunction, c: UploadCompressionView, lang: 'es' | 'en'): string {
  return c.ratio !== null
    ? t('uploads.compression.compressingRatio', { ratio: ratioText(c.ratio, lang) })
    : t('uploads.compression.compressing');
}

/** Sizes and percent of a part done, for the words of the stats line. */
const partDone = (done: number, total: number, lang: 'es' | 'en') => ({
  total: formatBytes(total, lang),
  percent: percent(done, total),
});

/** The stats line's words and which stage they speak of. */
function statsLine(
  job: UploadJobView,
  c: UploadCompressionView,
  t: TFunction,
  lang: 'es' | 'en',
): { stage: 'done' | 'compressing' | 'sending'; text: string } {
  const eta =
    job.eta_seconds !== null && job.eta_seconds > 0 && job.phase !== 'paused'
      ? ` · ${t('uploads.eta', { time: formatDuration(job.eta_seconds) })}`
      : '';
  const study = formatBytes(c.study_bytes, lang);
  const ratio = ratioText(c.ratio, lang);
  if (job.phase === 'ready')
    return {
      stage: 'done',
      text: t('uploads.compression.readyStats', {
        files: job.files_total,
        study,
        sent: formatBytes(job.bytes_total, lang),
        ratio,
      }),
    };
  const compressed = partDone(c.study_bytes_done, c.study_bytes, lang);
  if (c.state === 'compressing')
    return {
      stage: 'compressing',
      text:
        t('uploads.compression.compressStats', { done: formatBytes(c.study_bytes_done, lang), ...compressed }) + eta,
    };
  const running = job.phase === 'uploading' && job.rate > 0;
  // The archive is sent while it is written: how far compressing got, until it is done.
  const alongside =
    c.study_bytes_done < c.study_bytes
      ? ` · ${t('uploads.compression.stillCompressing', { percent: compressed.percent })}`
      : '';
  const sent = t('uploads.compression.sendingStats', {
    sent: formatBytes(job.bytes_sent, lang),
    ...partDone(job.bytes_sent, job.bytes_total, lang),
    study,
    ratio,
  });
  return { stage: 'sending', text: sent + (running ? ` · ${formatRate(job.rate, lang)}${eta}` : '') + alongside };
}

/**
 * The line under a compressed upload, in words: what is being compressed, or what goes on the wire
 * against the study's own size, the rate on the wire and the time left.
 */
export function CompressionStats({ job, c }: { job: UploadJobView; c: UploadCompressionView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { stage, text } = statsLine(job, c, t, lang);
  return (
    <Text size="sm" data-testid="upload-stats" data-compression={stage}>
      {text}
    </Text>
  );
}
