import { Loader } from '@mantine/core';
import type { MantineSize } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The spinner while a read is under way. It is a status, named "Loading": a name on an element
 * without a role is not allowed (axe's aria-prohibited-attr), and a check of a screen that runs
 * while a read is still out would fail on it.
 */
export function Loading({ size, label }: { size?: MantineSize; label?: string }) {
  const { t } = useTranslation();
  return <Loader role="status" aria-label={label ?? t('common.loading')} size={size} />;
}
