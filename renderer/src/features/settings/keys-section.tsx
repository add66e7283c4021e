import { Alert, Badge, Button, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeyKind, KeysStatus } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { KeyForm } from '../onboarding/key-form';
import { useActivateKey, useRemoveKey } from './settings-queries';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RowAction } from '../../components/row-action';
import { SettingsSection } from './settings-section';

function Slot({ kind, status }: { kind: KeyKind; status: KeysStatus }) {
  const { t } = useTranslation();
  const slot = status[kind];
  const active = status.active === kind;
  const [confirming, setConfirming] = useState(false);
  const activate = useActivateKey();
  const remove = useRemoveKey();
  const name = kind === 'live' ? t('keys.live') : t('keys.sandbox');
  return (
    <Paper withBorder p="md" data-testid={`key-slot-${kind}`}>
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={700}>{name}</Text>
            {active && (
              <Badge color={kind === 'sandbox' ? 'yellow.4' : 'teal.9'} c={kind === 'sandbox' ? '#1a1200' : 'white'}>
                {t('keys.active')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {slot.present
              ? `${t('keys.stored', { hint: slot.hint ?? '' })}${slot.session_only ? ` · ${t('keys.sessionOnlyShort')}` : ''}`
              : t('keys.empty')}
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {slot.present && !active && (
            <Button size="xs" onClick={() => activate.mutate({ kind })} loading={activate.isPending}>
              {t('keys.activate')}
            </Button>
          )}
          {slot.present && (
            <RowAction
              label={t('common.remove')}
              name={t('keys.removeKey', { kind: name })}
              onClick={() => setConfirming(true)}
            />
          )}
        </Group>
      </Group>
      <ConfirmDialog
        opened={confirming}
        title={t('keys.confirmRemove')}
        body={`${name} · ${t('keys.stored', { hint: slot.hint ?? '' })}`}
        confirm={t('common.remove')}
        danger
        loading={remove.isPending}
        onConfirm={() => remove.mutate({ kind }, { onSettled: () => setConfirming(false) })}
        onClose={() => setConfirming(false)}
        testId={`key-remove-${kind}`}
      />
      <ErrorAlert error={activate.error ?? remove.error} />
    </Paper>
  );
}

/** The live and sandbox keys: which one is in use, switching, removing and adding. */
export function KeysSection({ status }: { status: KeysStatus }) {
  const { t } = useTranslation();
  return (
    <SettingsSection id="keys" title={t('keys.title')}>
      {!status.keychain.available && (
        <Alert color="yellow" variant="light" title={t('errors.keychain_unavailable.title')}>
          <Text size="sm">
            {t(
              !status.keychain.available && status.keychain.reason === 'no_module'
                ? 'errors.keychain_unavailable.no_module_action'
                : 'errors.keychain_unavailable.action',
            )}
          </Text>
        </Alert>
      )}
      <Slot kind="live" status={status} />
      <Slot kind="sandbox" status={status} />
      <Divider />
      <Text fw={600}>{t('keys.addTitle')}</Text>
      <Text size="sm" c="dimmed">
        {t('keys.addHelp')}
      </Text>
      <KeyForm />
    </SettingsSection>
  );
}
