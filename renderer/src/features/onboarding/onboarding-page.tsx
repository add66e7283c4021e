import { Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { hasAnyKey } from '../../app/key-state';
import { useKeysStatus } from '../../app/queries';
import { LanguageSwitch } from '../../components/language-switch';
import { KeyForm } from './key-form';

/** First run: no key yet. Paste, verify, save; then on to the inbox. */
export function OnboardingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useKeysStatus().data;
  const [waitForContinue, setWaitForContinue] = useState(false);
  return (
    <>
      <header>
        <Group justify="space-between" px="lg" h={60} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Text fw={700} size="xl">
            ScanBridge
          </Text>
          <LanguageSwitch />
        </Group>
      </header>
      <Center component="main" py={40}>
        <Paper withBorder shadow="sm" p="xl" w={640} radius="md">
          <Stack gap="md">
            <Title order={1} size="h2">
              {t('onboarding.title')}
            </Title>
            <Text>{t('onboarding.intro')}</Text>
            <KeyForm
              onSaved={(s) => {
                if (s.keychain.available) navigate('/inbox', { replace: true });
                else setWaitForContinue(true);
              }}
            />
            {(waitForContinue || hasAnyKey(status)) && (
              <Group justify="flex-end">
                <Button component={Link} to="/inbox" data-testid="onboarding-continue">
                  {t('onboarding.continue')}
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      </Center>
    </>
  );
}
