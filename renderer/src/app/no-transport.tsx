import { Alert, Center, Code, MantineProvider, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { cssVariablesResolver, theme } from './theme';

/** Browser mode opened without the session link: nothing can be called, so say how to open it. */
export function NoTransport() {
  const { t } = useTranslation();
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Center h="100vh" component="main">
        <Stack w={560}>
          <Alert color="red" title={t('connection.noTokenTitle')} role="alert">
            <Text size="sm">{t('connection.noTokenBody')}</Text>
            <Code block mt="sm">
              npx scanbridge serve
            </Code>
          </Alert>
        </Stack>
      </Center>
    </MantineProvider>
  );
}
