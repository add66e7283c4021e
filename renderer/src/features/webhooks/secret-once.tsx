import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The signing secret, shown this one time only, with copy and the warning that it will not come back. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="orange"
      variant="light"
      title={t('webhooks.secretTitle')}
      data-testid="webhook-secret-panel"
      role="status"
    >
      <Stack gap="xs">
        <Text size="sm" fw={700}>
          {t('webhooks.secretWarning')}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code data-testid="webhook-secret" style={{ fontSize: 14, padding: '6px 10px', wordBreak: 'break-all' }}>
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant={copied ? 'filled' : 'default'}
                color={copied ? 'green.8' : undefined}
                onClick={copy}
                data-testid="webhook-secret-copy"
              >
                {copied ? t('webhooks.copied') : t('webhooks.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">{t('webhooks.secretUse')}</Text>
        <Group justify="flex-end">
          <Button onClick={onDone} data-testid="webhook-secret-done">
            {t('webhooks.secretDone')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
