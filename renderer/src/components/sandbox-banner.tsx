import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown on every screen while a sandbox key is in use, so nobody mistakes test uploads for real ones. */
export function SandboxBanner() {
  const { t } = useTranslation();
  return (
    <Group
      role="status"
      data-testid="sandbox-banner"
      justify="center"
      gap="xs"
      h={36}
      px="md"
      wrap="nowrap"
      style={{
        background: 'repeating-linear-gradient(135deg, #ffd43b 0 18px, #fcc419 18px 36px)',
        borderBottom: '2px solid #e67700',
      }}
    >
      <Text fw={800} size="sm" c="#1a1200" tt="uppercase">
        {t('sandbox.banner')}
      </Text>
      <Text size="sm" c="#1a1200" truncate>
        {t('sandbox.bannerDetail')}
      </Text>
    </Group>
  );
}
