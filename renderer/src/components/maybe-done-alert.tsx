import { Alert, Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutcomeCheck, OutcomeFinding } from '../../../preload/contract';
import { useTransport } from '../app/transport-context';
import { formatTime } from './format';
import { useLanguage } from './use-language';

/** What the window knew before the call, to tell "it was done" from "it was not". */
export type OutcomeBefore = { shares?: number; pin?: string | null };

type Props = {
  check: OutcomeCheck;
  before?: OutcomeBefore | undefined;
  /** A line of context for this call (e.g. what the service cannot show). */
  note?: string | undefined;
  /** Told once the look is done (to refresh a list that now holds the new item). */
  onFound?: ((finding: OutcomeFinding) => void) | undefined;
};

function findingText(
  f: OutcomeFinding,
  before: OutcomeBefore | undefined,
  t: (key: string, vars?: Record<string, string | number>) => string,
  at: (iso: string | null) => string,
): string {
  switch (f.action) {
    case 'share':
      if (before?.shares === undefined) return t('maybeDone.share.total', { shares: f.shares });
      return f.shares > before.shares
        ? t('maybeDone.share.sent', { before: before.shares, shares: f.shares })
        : t('maybeDone.share.notSent', { shares: f.shares });
    case 'rotate_pin':
      if (!before?.pin) return t('maybeDone.rotate_pin.current', { pin: f.pin });
      return f.pin !== before.pin
        ? t('maybeDone.rotate_pin.changed', { pin: f.pin })
        : t('maybeDone.rotate_pin.same', { pin: f.pin });
    case 'embed_enable':
      return t(f.enabled ? 'maybeDone.embed_enable.on' : 'maybeDone.embed_enable.off');
    case 'report_upload':
      return f.present
        ? t('maybeDone.report_upload.present', { filename: f.filename ?? 'PDF' })
        : t('maybeDone.report_upload.absent');
    case 'report_sign':
      return f.signed
        ? t('maybeDone.report_sign.signed', { at: at(f.signed_at) })
        : t('maybeDone.report_sign.notSigned');
    case 'consent':
      return f.status === 'signed'
        ? t('maybeDone.consent.signed', { at: at(f.signed_at) })
        : t(`maybeDone.consent.${f.status}`);
    case 'webhook_create':
      return f.matches > 0
        ? t('maybeDone.webhook_create.found', { count: f.matches })
        : t('maybeDone.webhook_create.none');
    case 'webhook_test':
      return f.pings > 0
        ? t('maybeDone.webhook_test.found', { count: f.pings, at: at(f.last_at) })
        : t('maybeDone.webhook_test.none');
    case 'ticket_create':
      return f.matches > 0
        ? t('maybeDone.ticket_create.found', { count: f.matches, at: at(f.last_at) })
        : t('maybeDone.ticket_create.none');
  }
}

/**
 * A call that is not safe to repeat lost its answer (`maybe_done`): says it may have been done, looks
 * once at the service (`outcome:check`, one API call) and says what it found, so that the
 * receptionist does not send an e-mail twice or open a second ticket.
 */
export function MaybeDoneAlert({ check, before, note, onFound }: Props) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const transport = useTransport();
  const [look, setLook] = useState<{ finding: OutcomeFinding } | { failed: true } | null>(null);
  const what = JSON.stringify(check);
  useEffect(() => {
    let live = true;
    setLook(null);
    transport.call('outcome:check', JSON.parse(what) as OutcomeCheck).then(
      (finding) => {
        if (!live) return;
        setLook({ finding });
        onFound?.(finding);
      },
      () => {
        if (live) setLook({ failed: true });
      },
    );
    return () => {
      live = false;
    };
    // One look per lost answer: `what` names it (the callback may change on every render).
  }, [transport, what]);
  const at = (iso: string | null): string => (iso ? formatTime(iso, lang) : '—');
  // The answer to "was it done?" must never go unseen below the fold.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (look !== null) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [look]);
  return (
    <Alert
      ref={ref}
      color="orange"
      variant="light"
      title={t('errors.maybe_done.title')}
      role="alert"
      data-error-code="maybe_done"
      data-testid="maybe-done"
      data-state={look === null ? 'checking' : 'failed' in look ? 'failed' : 'found'}
    >
      <Text size="sm">{t('errors.maybe_done.action')}</Text>
      {look === null && (
        <Text size="sm" mt={6} c="dimmed" data-testid="maybe-done-checking">
          <Loader size={12} mr={6} aria-hidden />
          {t('maybeDone.checking')}
        </Text>
      )}
      {look !== null && 'failed' in look && (
        <Text size="sm" mt={6} data-testid="maybe-done-finding">
          {t('maybeDone.checkFailed')}
        </Text>
      )}
      {look !== null && 'finding' in look && (
        <Text size="sm" mt={6} fw={600} data-testid="maybe-done-finding" data-action={look.finding.action}>
          {t('maybeDone.found')} {findingText(look.finding, before, (key, vars) => t(key, vars ?? {}), at)}
        </Text>
      )}
      {note && (
        <Text size="sm" mt={4}>
          {note}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt={4}>
        {t('errors.technical', { code: 'maybe_done' })}
      </Text>
    </Alert>
  );
}
