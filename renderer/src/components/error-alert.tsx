import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ContractError } from '../../../preload/contract';
import { errorTexts } from './error-texts';
import { MaybeDoneAlert, type OutcomeBefore } from './maybe-done-alert';
import type { OutcomeCheck, OutcomeFinding } from '../../../preload/contract';

type Props = {
  error: ContractError | { code: string; message: string } | null | undefined;
  title?: string;
  onClose?: () => void;
  /**
   * For a call that is not safe to repeat: what to look at when its answer is lost (`maybe_done`),
   * what the window knew before, a line of context and who to tell once the look is done.
   */
  check?: OutcomeCheck | undefined;
  before?: OutcomeBefore | undefined;
  note?: string | undefined;
  onFound?: ((finding: OutcomeFinding) => void) | undefined;
};

/**
 * An error in plain words with what to do, translated by its code. Field problems are named by
 * field only: their detail text comes from the service or the schema, in English.
 */
export function ErrorAlert({ error, title, onClose, check, before, note, onFound }: Props) {
  const { t, i18n } = useTranslation();
  if (!error) return null;
  if (error.code === 'maybe_done' && check)
    return <MaybeDoneAlert check={check} before={before} note={note} onFound={onFound} />;
  const texts = errorTexts(error.code, i18n.exists.bind(i18n), t);
  const details = 'details' in error ? (error.details ?? []) : [];
  const fields = [...new Set(details.map((d) => d.field.split('.').pop() ?? d.field))].map((f) =>
    /^[a-z_]+$/.test(f) && i18n.exists(`fieldNames.${f}`) ? t(`fieldNames.${f}`) : f,
  );
  return (
    <Alert
      color="red"
      variant="light"
      title={title ?? texts.title}
      role="alert"
      data-error-code={error.code}
      withCloseButton={!!onClose}
      onClose={onClose}
      closeButtonLabel={t('common.close')}
    >
      <Text size="sm">{texts.action}</Text>
      {fields.length > 0 && (
        <Text size="sm" mt={4} fw={600}>
          {t('errors.fieldsToCheck', { fields: fields.join(', ') })}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt={4}>
        {t('errors.technical', { code: error.code })}
      </Text>
    </Alert>
  );
}
