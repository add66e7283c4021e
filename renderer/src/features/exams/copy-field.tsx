import { Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A value shown in full under its label, with a Copy button beside it. */
export function CopyField({
  label,
  value,
  copyLabel,
  testId,
  mono,
}: {
  label: string;
  value: string;
  copyLabel: string;
  testId: string;
  mono?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group gap="sm" wrap="nowrap" align="center">
        <Text
          size="sm"
          ff={mono ? 'monospace' : undefined}
          style={{ overflowWrap: 'anywhere', flex: 1 }}
          data-testid={testId}
        >
          {value}
        </Text>
        <CopyButton value={value} timeout={2500}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'filled' : 'default'}
              color={copied ? 'teal.9' : undefined}
              onClick={copy}
              data-testid={`${testId}-copy`}
              aria-live="polite"
              style={{ flexShrink: 0 }}
            >
              {copied ? t('exams.share.copied') : copyLabel}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
