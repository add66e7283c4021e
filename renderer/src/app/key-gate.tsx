import { Button, Center, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { ErrorAlert } from '../components/error-alert';
import { hasAnyKey } from './key-state';
import { Layout } from './layout';
import { useKeysStatus } from './queries';
import { Loading } from '../components/loading';

/** The app shell once a key is held; onboarding before. */
export function KeyGate() {
  const { t } = useTranslation();
  const keys = useKeysStatus();
  if (keys.isPending) {
    return (
      <Center h="100vh">
        <Loading />
      </Center>
    );
  }
  if (keys.isError) {
    return (
      <Center h="100vh">
        <Stack w={520}>
          <ErrorAlert error={keys.error} />
          <Button onClick={() => void keys.refetch()}>{t('common.retry')}</Button>
        </Stack>
      </Center>
    );
  }
  if (!hasAnyKey(keys.data)) return <Navigate to="/onboarding" replace />;
  return <Layout />;
}
