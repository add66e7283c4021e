import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { useForm, type UseFormReturnType } from '@mantine/form';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ExamView, ReferrerView, ShareSent } from '../../../../preload/contract';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { formatNumber } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyField } from './copy-field';
import { parseEmails } from './emails';
import { useExamOutlet } from './exam-layout';
import {
  useEmbed,
  useEnableEmbed,
  usePublicPage,
  useReferrers,
  useRefreshEmbed,
  useRevokeEmbed,
  useRotatePin,
  useShareEmail,
  useStoreExam,
} from './exam-queries';
import { HandoutButton } from './handout-button';
import { Loading } from '../../components/loading';

type EmailValues = { to: string; cc: string; message: string; locale: 'es' | 'en' | 'pt' };

/** To must hold at least one address, Cc may be empty; both name the parts that are not e-mail. */
function recipientsSchema(t: TFunction) {
  const addresses = (required: boolean) =>
    z.string().superRefine((text, ctx) => {
      const { ok, bad } = parseEmails(text);
      if (bad.length) ctx.addIssue({ code: 'custom', message: t('exams.share.badEmails', { list: bad.join(', ') }) });
      else if (required && ok.length === 0) ctx.addIssue({ code: 'custom', message: t('exams.share.needTo') });
    });
  return z.object({ to: addresses(true), cc: addresses(false) });
}

/** Who receives the e-mail: a referrer picked from the directory, or addresses typed in To and Cc. */
function EmailRecipients({
  referrers,
  onReferrer,
  form,
}: {
  referrers: ReferrerView[];
  onReferrer: (id: string | null) => void;
  form: UseFormReturnType<EmailValues>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Select
        label={t('exams.share.referrer')}
        placeholder={referrers.length ? t('exams.share.referrerPlaceholder') : t('exams.share.noReferrers')}
        data={referrers.map((r) => ({ value: r.id, label: `${r.name} — ${r.email ?? ''}` }))}
        value={null}
        onChange={onReferrer}
        disabled={referrers.length === 0}
        searchable
        nothingFoundMessage={t('exams.share.noReferrers')}
        data-testid="share-referrer"
      />
      <TextInput
        label={t('exams.share.to')}
        description={t('exams.share.toHelp')}
        {...form.getInputProps('to')}
        required
        data-testid="share-to"
        autoComplete="off"
      />
      <TextInput
        label={t('exams.share.cc')}
        description={t('exams.share.ccHelp')}
        {...form.getInputProps('cc')}
        data-testid="share-cc"
        autoComplete="off"
      />
    </>
  );
}

/** The service's answer to the e-mail: sent to whom, or not sent. */
function ShareResult({ result }: { result: ShareSent & { to: string[] } }) {
  const { t } = useTranslation();
  return (
    <>
      {result.sent && (
        <Alert color="teal" role="status" data-testid="share-result" data-sent="true">
          {t('exams.share.sent', { to: result.to.join(', ') })}
        </Alert>
      )}
      {!result.sent && (
        <Alert
          color="yellow"
          role="status"
          title={t('exams.share.notSentTitle')}
          data-testid="share-result"
          data-sent="false"
          data-reason={result.reason ?? ''}
        >
          <Text size="sm">{t('exams.share.notSentBody')}</Text>
        </Alert>
      )}
    </>
  );
}

function EmailSection({ exam }: { exam: ExamView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const referrers = useReferrers();
  const schema = useMemo(() => recipientsSchema(t), [t]);
  // An error about the recipients stays until the next try (or a referrer is picked): it quotes what was typed.
  const form = useCheckedForm<EmailValues>(schema, { to: '', cc: '', message: '', locale: lang }, undefined, {
    clearInputErrorOnChange: false,
  });
  const [result, setResult] = useState<(ShareSent & { to: string[] }) | null>(null);
  // The share counter when the e-mail was sent: after a lost answer, a higher count means it went out.
  const [sharesBefore, setSharesBefore] = useState<number | undefined>(undefined);
  const store = useStoreExam();
  const share = useShareEmail(exam.id, (r, args) => setResult({ ...r, to: args.to }));
  const resultRef = useRef<HTMLDivElement>(null);
  // The answer appears under the form: bring it into view so "not sent" is never missed.
  useEffect(() => {
    if (result) resultRef.current?.scrollIntoView({ block: 'nearest' });
  }, [result]);
  const withEmail = (referrers.data?.referrers ?? []).filter((r) => r.email);
  const addReferrer = (id: string | null) => {
    const r = withEmail.find((x) => x.id === id);
    if (!r?.email) return;
    const current = parseEmails(form.getValues().to).ok;
    if (!current.includes(r.email)) form.setFieldValue('to', [...current, r.email].join(', '));
    form.clearFieldError('to');
  };
  const send = (values: EmailValues) => {
    setResult(null);
    setSharesBefore(exam.counters?.shares);
    const message = values.message.trim();
    share.mutate({
      exam_id: exam.id,
      to: parseEmails(values.to).ok,
      cc: parseEmails(values.cc).ok,
      ...(message ? { message } : {}),
      locale: values.locale,
    });
  };
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={form.onSubmit(send, () => setResult(null))}
      noValidate
      data-testid="share-email"
      aria-labelledby="share-email-title"
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id="share-email-title">
          {t('exams.share.emailTitle')}
        </Title>
        <EmailRecipients referrers={withEmail} onReferrer={addReferrer} form={form} />
        <Textarea
          label={t('exams.share.message')}
          {...form.getInputProps('message')}
          maxLength={2000}
          autosize
          minRows={2}
          maxRows={4}
          data-testid="share-message"
        />
        <Select
          label={t('exams.share.locale')}
          data={(['es', 'en', 'pt'] as const).map((l) => ({ value: l, label: t(`exams.share.locales.${l}`) }))}
          {...form.getInputProps('locale')}
          allowDeselect={false}
          data-testid="share-locale"
        />
        <Group justify="flex-end">
          <Button type="submit" loading={share.isPending} disabled={exam.status !== 'ready'} data-testid="share-send">
            {t('exams.share.send')}
          </Button>
        </Group>
        <ErrorAlert
          error={share.error}
          check={{ action: 'share', exam_id: exam.id }}
          before={{ ...(sharesBefore !== undefined ? { shares: sharesBefore } : {}) }}
          onFound={(f) => {
            if (f.action === 'share' && exam.counters)
              store({ ...exam, counters: { ...exam.counters, shares: f.shares } });
          }}
        />
        {result && <ShareResult result={result} />}
        <div ref={resultRef} />
      </Stack>
    </Paper>
  );
}

function ViewerSection({ exam }: { exam: ExamView }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" data-testid="share-viewer">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('exams.share.viewerTitle')}
        </Title>
        {exam.viewer_url ? (
          <>
            <CopyField
              label={t('exams.share.viewerLink')}
              value={exam.viewer_url}
              copyLabel={t('exams.share.copyLink')}
              testId="viewer-url"
            />
            {exam.share_password && (
              <CopyField
                label={t('exams.share.password')}
                value={exam.share_password}
                copyLabel={t('exams.share.copyPassword')}
                testId="viewer-password"
                mono
              />
            )}
            {/* A new window is denied by the desktop shell and the link goes to the system browser when its host is allowed (main/windows/security.ts). */}
            <Anchor
              href={exam.viewer_url}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              fw={600}
              data-testid="viewer-open"
            >
              {t('exams.share.openViewer')}
            </Anchor>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('exams.share.noViewer')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function PinSection({ exam }: { exam: ExamView }) {
  const { t } = useTranslation();
  const page = usePublicPage(exam.id);
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState(false);
  const [pinBefore, setPinBefore] = useState<string | null>(null);
  const store = useStoreExam();
  const rotate = useRotatePin(exam, () => {
    setConfirming(false);
    setRotated(true);
  });
  // A lost answer is shown beside the PIN, with what the look found: the question is over.
  useEffect(() => {
    if (rotate.error?.code === 'maybe_done') setConfirming(false);
  }, [rotate.error]);
  // The exam carries its own PIN (GET /exams/{id}); the public page address is the clinic's, the same
  // for every exam, so it is asked once per session.
  const pin = exam.public_page_pin;
  const url = page.data?.public_url ?? null;
  return (
    <Paper withBorder p="md" data-testid="share-pin">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('exams.share.pinTitle')}
        </Title>
        {page.isPending && <Loading size="sm" />}
        <ErrorAlert error={page.error} />
        <Group align="flex-start" wrap="nowrap" gap="lg">
          <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
            {pin && (
              <CopyField
                label={t('exams.share.pin')}
                value={pin}
                copyLabel={t('exams.share.copy')}
                testId="pin-value"
                mono
              />
            )}
            {url && (
              <CopyField
                label={t('exams.share.publicUrl')}
                value={url}
                copyLabel={t('exams.share.copyLink')}
                testId="public-url"
              />
            )}
            <HandoutButton exam={exam} />
            <Group>
              <Button variant="default" color="red" onClick={() => setConfirming(true)} data-testid="pin-rotate">
                {t('exams.share.rotate')}
              </Button>
            </Group>
            {rotated && (
              <Alert color="teal" role="status" data-testid="pin-rotated">
                {t('exams.share.rotated')}
              </Alert>
            )}
            <ErrorAlert
              error={rotate.error}
              check={{ action: 'rotate_pin', exam_id: exam.id }}
              before={{ pin: pinBefore }}
              onFound={(f) => {
                if (f.action === 'rotate_pin') store({ ...exam, public_page_pin: f.pin });
              }}
            />
          </Stack>
          {url && (
            <div data-testid="public-qr">
              <QRCodeSVG
                value={url}
                size={128}
                role="img"
                aria-label={t('exams.share.qrLabel')}
                title={t('exams.share.qrLabel')}
              />
            </div>
          )}
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('exams.share.rotateTitle')}
        body={t('exams.share.rotateBody')}
        confirm={t('exams.share.rotateConfirm')}
        danger
        loading={rotate.isPending}
        onConfirm={() => {
          setPinBefore(exam.public_page_pin);
          rotate.mutate({ exam_id: exam.id });
        }}
        onClose={() => setConfirming(false)}
        testId="pin-rotate-modal"
      />
    </Paper>
  );
}

/** Turning the embed on and off, with the question before revoking and the note once revoked. */
function useEmbedCalls(examId: string) {
  const [confirming, setConfirming] = useState(false);
  const [revoked, setRevoked] = useState(false);
  const refresh = useRefreshEmbed(examId);
  const enable = useEnableEmbed(examId, () => setRevoked(false));
  const revoke = useRevokeEmbed(examId, () => {
    setConfirming(false);
    setRevoked(true);
  });
  return { confirming, setConfirming, revoked, refresh, enable, revoke };
}

function EmbedSection({ exam }: { exam: ExamView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const embed = useEmbed(exam.id);
  // The embed is public: its title never defaults to the exam's name, which may carry the patient's
  // (the service itself would use that name for an embed enabled without a title).
  const neutralTitle = t(`examType.${exam.exam_type}`);
  const form = useForm({ initialValues: { title: neutralTitle, showYear: true, showType: true } });
  const { confirming, setConfirming, revoked, refresh, enable, revoke } = useEmbedCalls(exam.id);
  const state = embed.data;
  return (
    <Paper withBorder p="md" data-testid="share-embed" data-enabled={state ? String(state.enabled) : undefined}>
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('exams.share.embedTitle')}
        </Title>
        {embed.isPending && <Loading size="sm" />}
        <ErrorAlert
          error={embed.error ?? enable.error ?? revoke.error}
          check={!embed.error && enable.error ? { action: 'embed_enable', exam_id: exam.id } : undefined}
          onFound={(f) => {
            if (f.action === 'embed_enable' && f.enabled) refresh();
          }}
        />
        {state?.enabled && state.snippet && (
          <>
            <CopyField
              label={t('exams.share.snippet')}
              value={state.snippet}
              copyLabel={t('exams.share.copySnippet')}
              testId="embed-snippet"
              mono
            />
            <Group justify="space-between">
              <Text size="sm" data-testid="embed-views">
                {t('exams.share.views', { count: formatNumber(state.view_count, lang) })}
              </Text>
              <Button variant="default" color="red" onClick={() => setConfirming(true)} data-testid="embed-revoke">
                {t('exams.share.revoke')}
              </Button>
            </Group>
          </>
        )}
        {state && !state.enabled && (
          <form
            onSubmit={form.onSubmit(({ title, showYear, showType }) =>
              enable.mutate({
                exam_id: exam.id,
                title: title.trim() || neutralTitle,
                show_year: showYear,
                show_study_type: showType,
              }),
            )}
          >
            <Stack gap="xs">
              {revoked ? (
                <Alert color="teal" role="status" data-testid="embed-revoked">
                  {t('exams.share.revoked')}
                </Alert>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('exams.share.embedOff')}
                </Text>
              )}
              <TextInput
                label={t('exams.share.embedTitleField')}
                {...form.getInputProps('title')}
                maxLength={200}
                data-testid="embed-title"
              />
              <Checkbox
                label={t('exams.share.showYear')}
                {...form.getInputProps('showYear', { type: 'checkbox' })}
                data-testid="embed-show-year"
              />
              <Checkbox
                label={t('exams.share.showStudyType')}
                {...form.getInputProps('showType', { type: 'checkbox' })}
                data-testid="embed-show-type"
              />
              <Group justify="flex-end">
                <Button type="submit" loading={enable.isPending} data-testid="embed-enable">
                  {t('exams.share.enable')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('exams.share.revokeTitle')}
        body={t('exams.share.revokeBody')}
        confirm={t('exams.share.revokeConfirm')}
        danger
        loading={revoke.isPending}
        onConfirm={() => revoke.mutate({ exam_id: exam.id })}
        onClose={() => setConfirming(false)}
        testId="embed-revoke-modal"
      />
    </Paper>
  );
}

/** `share`: e-mail, viewer link and password, the public page PIN with its QR code, and the embed. */
export function SharePanel() {
  const { exam } = useExamOutlet();
  return (
    <Stack gap="md" data-testid="share-panel">
      <Group align="flex-start" grow gap="md" wrap="nowrap">
        <EmailSection exam={exam} />
        <Stack gap="md">
          <ViewerSection exam={exam} />
          <PinSection exam={exam} />
        </Stack>
      </Group>
      <EmbedSection exam={exam} />
    </Stack>
  );
}
