import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ProxySettingsView } from '../../../../preload/contract';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { useSavedDraft } from './saved-draft';
import { useProxy, useSaveProxy } from './settings-queries';

/** True for an address the core accepts: http(s)://host[:port], no login, no path. */
export function proxyAddressOk(address: string): boolean {
  try {
    const u = new URL(address);
    return (
      (u.protocol === 'http:' || u.protocol === 'https:') &&
      u.hostname !== '' &&
      u.username === '' &&
      u.password === '' &&
      u.pathname === '/' &&
      u.search === '' &&
      u.hash === ''
    );
  } catch {
    return false;
  }
}

/**
 * The proxy form: an address the core accepts (or none), and a user whenever a password is typed.
 * Each message is a key under `network.`.
 */
const proxySchema = z
  .object({
    url: z
      .string()
      .trim()
      .refine((a) => a === '' || proxyAddressOk(a), 'invalidUrl'),
    user: z.string(),
    password: z.string(),
  })
  .refine((v) => v.password === '' || v.user.trim() !== '', { message: 'needsUser', path: ['user'] });

function ProxyStatus({ view }: { view: ProxySettingsView }) {
  const { t } = useTranslation();
  let text = t('network.statusNone');
  if (view.url && view.user && view.password_saved)
    text = t(view.session_only ? 'network.statusLoginSession' : 'network.statusLogin', {
      url: view.url,
      user: view.user,
    });
  else if (view.url) text = t('network.statusSet', { url: view.url });
  return (
    <Text size="sm" data-testid="proxy-status">
      {text}
    </Text>
  );
}

const proxyDraft = (view: ProxySettingsView): { url: string; user: string } => ({
  url: view.url ?? '',
  user: view.user ?? '',
});

/** Settings → Network: the proxy's address, user and password (kept in the keychain, never shown back). */
export function NetworkSection() {
  const { t } = useTranslation();
  const current = useProxy();
  const view = current.data;
  // Checked on Save, and from then on as typed; the address and user follow the saved settings until edited.
  const form = useCheckedForm(proxySchema, { url: '', user: '', password: '' }, (code) => `network.${code}`, {
    recheckAfterSubmit: true,
  });
  const { edited, saved } = useSavedDraft(form, view, proxyDraft);
  const [done, setDone] = useState<'saved' | 'removed' | null>(null);
  const save = useSaveProxy((result, args) => {
    saved();
    form.reset();
    form.setValues({ ...proxyDraft(result), password: '' });
    setDone(args.url ? 'saved' : 'removed');
  });
  const submit = ({ url, user, password }: { url: string; user: string; password: string }): void => {
    const address = url.trim();
    setDone(null);
    save.mutate({
      url: address === '' ? null : address,
      user: user.trim() === '' ? null : user.trim(),
      ...(password !== '' ? { password } : {}),
    });
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="settings-network">
      <Stack gap="md">
        <Title order={3} id="settings-network">
          {t('network.title')}
        </Title>
        <Text size="sm">{t('network.intro')}</Text>
        {view && <ProxyStatus view={view} />}
        <ErrorAlert error={current.error ?? save.error} />
        <form onSubmit={form.onSubmit(submit, () => setDone(null))} onChange={edited}>
          <Stack gap="sm" maw={560}>
            <TextInput
              label={t('network.address')}
              description={t('network.addressHelp')}
              placeholder="http://proxy.clinica.local:3128"
              {...form.getInputProps('url')}
              data-testid="proxy-url"
              autoComplete="off"
              spellCheck={false}
            />
            <TextInput
              label={t('network.user')}
              description={t('network.userHelp')}
              {...form.getInputProps('user')}
              data-testid="proxy-user"
              autoComplete="off"
              spellCheck={false}
            />
            <PasswordInput
              label={t('network.password')}
              description={t('network.passwordHelp')}
              placeholder={view?.password_saved ? t('network.passwordSaved') : undefined}
              {...form.getInputProps('password')}
              data-testid="proxy-password"
              autoComplete="new-password"
            />
            <Group>
              <Button type="submit" loading={save.isPending} data-testid="proxy-save">
                {t('network.save')}
              </Button>
              {view?.url && (
                <Button
                  variant="default"
                  onClick={() => {
                    setDone(null);
                    save.mutate({ url: null, user: null });
                  }}
                  disabled={save.isPending}
                >
                  {t('network.remove')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
        {done && (
          <Alert color="green" data-testid="proxy-done">
            {t(`network.${done}`)}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
