import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

type Props = {
  /** Names the section's heading (`settings-<id>`), which names the section for a screen reader. */
  id: string;
  title: string;
  /** A line under the title on what the section is for. */
  intro?: string;
  testId?: string;
  children: ReactNode;
};

/** One part of the Settings screen: a titled, bordered section. */
export function SettingsSection({ id, title, intro, testId, children }: Props) {
  const heading = `settings-${id}`;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={heading} data-testid={testId}>
      <Stack gap="md">
        <Title order={3} id={heading}>
          {title}
        </Title>
        {intro && (
          <Text size="sm" c="dimmed">
            {intro}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
