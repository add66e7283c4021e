import { Alert, Badge, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { AccountView, KeysStatus } from '../../../../preload/contract';
import { kindOfKey } from '../../app/key-state';
import { AccountSummary } from '../../components/account-summary';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { useSaveKey, useVerifyKey } from './onboarding-queries';

type Props = {
  /** Called after the key is stored (in the keychain or, without one, for this session). */
  onSaved?: (status: KeysStatus) => void;
};

/** What the pasted key looks like by its prefix, before the service has been asked. */
function KeyKindGuess({ kind }: { kind: 'live' | 'sandbox' }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" data-testid="key-kind-guess">
      {kind === 'sandbox' ? (
        <Badge color="yellow.4" c="#1a1200" mr={6}>
          {t('keys.sandbox')}
        </Badge>
      ) : (
        <Badge color="teal.9" mr={6}>
          {t('keys.live')}
        </Badge>
      )}
      {kind === 'sandbox' ? t('onboarding.looksSandbox') : t('onboarding.looksLive')}
    </Text>
  );
}

/** Where the key ended up: the keychain, or only this session when there is no keychain. */
function KeySavedNotice({ status }: { status: KeysStatus }) {
  const { t } = useTranslation();
  return status.keychain.available ? (
    <Alert color="teal" variant="light" title={t('onboarding.savedTitle')} role="status" data-testid="key-saved">
      {t('onboarding.savedBody')}
    </Alert>
  ) : (
    <Alert
      color="yellow"
      variant="light"
      title={t('errors.keychain_unavailable.title')}
      role="status"
      data-testid="key-saved-session"
    >
      {t(
        !status.keychain.available && status.keychain.reason === 'no_module'
          ? 'errors.keychain_unavailable.no_module_action'
          : 'errors.keychain_unavailable.action',
      )}
    </Alert>
  );
}

/** A key is at least eight characters once trimmed; the message is a key under `onboarding.`. */
const keySchema = z.object({ key: z.string().trim().min(8, 'keyTooShort') });

/** Paste a key, verify it with the service (GET /me), then store it in the OS keychain. */
export function KeyForm({ onSaved }: Props) {
  const { t } = useTranslation();
  const [verified, setVerified] = useState<{ key: string; account: AccountView } | null>(null);
  const [savedStatus, setSavedStatus] = useState<KeysStatus | null>(null);
  const form = useCheckedForm(keySchema, { key: '' }, (code) => `onboarding.${code}`, {
    onValuesChange: () => {
      setVerified(null);
      setSavedStatus(null);
    },
  });
  const verify = useVerifyKey();
  const save = useSaveKey();
  const trimmed = form.values.key.trim();
  const kind = trimmed ? kindOfKey(trimmed) : null;

  const onVerify = (): void => {
    save.reset();
    verify.mutate({ key: trimmed }, { onSuccess: (account) => setVerified({ key: trimmed, account }) });
  };
  const onSave = (): void => {
    if (form.validate().hasErrors) return;
    verify.reset();
    save.mutate(
      { key: trimmed },
      {
        onSuccess: (r) => {
          setVerified({ key: trimmed, account: r.account });
          setSavedStatus(r.status);
          onSaved?.(r.status);
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <form noValidate onSubmit={form.onSubmit(onVerify)}>
        <Stack gap="sm">
          <PasswordInput
            label={t('onboarding.keyLabel')}
            description={t('onboarding.keyHelp')}
            {...form.getInputProps('key')}
            autoComplete="off"
            spellCheck={false}
            data-testid="key-input"
            visibilityToggleButtonProps={{ 'aria-label': t('onboarding.toggleVisibility') }}
          />
          {kind && <KeyKindGuess kind={kind} />}
          <Group>
            <Button
              type="submit"
              variant="default"
              loading={verify.isPending}
              disabled={!trimmed}
              data-testid="verify-key"
            >
              {t('onboarding.verify')}
            </Button>
            <Button type="button" onClick={onSave} loading={save.isPending} disabled={!trimmed} data-testid="save-key">
              {t('onboarding.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      {verify.error && <ErrorAlert error={verify.error} />}
      {save.error && <ErrorAlert error={save.error} />}
      {verified && verified.key === trimmed && (
        <Stack gap="xs">
          {!savedStatus && (
            <Text size="sm" c="teal.9" fw={600} role="status" data-testid="key-verified">
              {t('onboarding.verified')}
            </Text>
          )}
          <AccountSummary account={verified.account} />
        </Stack>
      )}
      {savedStatus && <KeySavedNotice status={savedStatus} />}
    </Stack>
  );
}
