import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { CaFileView } from '../../../../preload/contract';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { useSavedDraft } from './saved-draft';
import { useCaFile, useSaveCaFile } from './settings-queries';

/** True for a full path on this computer or a Windows one (C:\…, \\server\share\…). */
export function fullPathOk(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

function CaStatus({ view }: { view: CaFileView }) {
  const { t } = useTranslation();
  let text = t('network.caStatusNone');
  let color: string | undefined;
  if (view.path && view.problem === 'unreadable') {
    text = t('network.caStatusUnreadable', { path: view.path });
    color = 'red';
  } else if (view.path && view.problem === 'no_certificate') {
    text = t('network.caStatusNoCertificate', { path: view.path });
    color = 'red';
  } else if (view.path) text = t('network.caStatusOk', { path: view.path, count: view.certificates });
  return (
    <Text size="sm" c={color} data-testid="ca-status">
      {text}
    </Text>
  );
}

/** No file, or a full path; the message is a key under `network.`. */
const caSchema = z.object({
  path: z
    .string()
    .trim()
    .refine((p) => p === '' || fullPathOk(p), 'caNeedsFullPath'),
});

const caDraft = (view: CaFileView): { path: string } => ({ path: view.path ?? '' });

/** Settings → Network: the extra certificate authority (CA) file (a TLS-inspecting firewall's root). */
export function CaFileSection() {
  const { t } = useTranslation();
  const current = useCaFile();
  const view = current.data;
  // Checked on Save, and from then on as typed; the path follows the saved settings until edited.
  const form = useCheckedForm(caSchema, { path: '' }, (code) => `network.${code}`, { recheckAfterSubmit: true });
  const { edited, saved } = useSavedDraft(form, view, caDraft);
  const [done, setDone] = useState<'caSaved' | 'caRemoved' | null>(null);
  const save = useSaveCaFile((result, args) => {
    saved();
    form.reset();
    form.setValues(caDraft(result));
    setDone(args.path ? 'caSaved' : 'caRemoved');
  });
  const submit = ({ path }: { path: string }): void => {
    const given = path.trim();
    setDone(null);
    save.mutate({ path: given === '' ? null : given });
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="settings-ca-file">
      <Stack gap="md">
        <Title order={3} id="settings-ca-file">
          {t('network.caTitle')}
        </Title>
        <Text size="sm">{t('network.caIntro')}</Text>
        {view && <CaStatus view={view} />}
        {view?.env_file && (
          <Alert color="yellow" data-testid="ca-env">
            {t('network.caEnvFile', { path: view.env_file })}
          </Alert>
        )}
        <ErrorAlert error={current.error ?? save.error} />
        <form onSubmit={form.onSubmit(submit, () => setDone(null))} onChange={edited}>
          <Stack gap="sm" maw={560}>
            <TextInput
              label={t('network.caPath')}
              description={t('network.caPathHelp')}
              {...form.getInputProps('path')}
              data-testid="ca-path"
              autoComplete="off"
              spellCheck={false}
            />
            <Group>
              <Button type="submit" loading={save.isPending} data-testid="ca-save">
                {t('network.caSave')}
              </Button>
              {view?.path && (
                <Button
                  variant="default"
                  onClick={() => {
                    setDone(null);
                    save.mutate({ path: null });
                  }}
                  disabled={save.isPending}
                >
                  {t('network.caRemove')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
        {done && (
          <Alert color="green" data-testid="ca-done">
            {t(`network.${done}`)}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
