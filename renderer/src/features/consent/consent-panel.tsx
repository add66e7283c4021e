import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { z } from 'zod';
import type {
  ConsentEmailView,
  ConsentOverview,
  ConsentSessionView,
  ConsentStatusView,
} from '../../../../preload/contract';
import { useKeysStatus } from '../../app/queries';
import { emailAddress, useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { fromBase64 } from '../../components/pdf/base64';
import { PdfView } from '../../components/pdf/pdf-view';
import { useLanguage } from '../../components/use-language';
import {
  useBlankPdf,
  useCloseDisplay,
  useConsentEvents,
  useConsentOverview,
  useConsentWatch,
  useEmailConsent,
  useOpenDisplay,
  useRefreshConsent,
  useStartConsent,
  useVerification,
} from './consent-queries';
import { Loading } from '../../components/loading';

const STATUS_COLOR: Record<ConsentStatusView['status'], string> = {
  none: 'gray.7',
  pending: 'blue.8',
  signed: '#216e39',
};

/** A PDF as a file the browser saves (to print it, or keep it). */
function DownloadLink({ pdfBase64, name, label }: { pdfBase64: string; name: string; label: string }) {
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([fromBase64(pdfBase64) as BlobPart], { type: 'application/pdf' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [pdfBase64]);
  return href ? (
    <Anchor href={href} download={name}>
      {label}
    </Anchor>
  ) : null;
}

function StatusCard({ consent }: { consent: ConsentStatusView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <Card withBorder data-testid="consent-status" data-status={consent.status}>
      <Group gap="sm">
        <Text fw={600}>{t('consent.status.label')}</Text>
        <Badge color={STATUS_COLOR[consent.status]} size="lg">
          {t(`consent.status.${consent.status}`)}
        </Badge>
      </Group>
      {consent.status === 'signed' && (
        <Stack gap={2} mt="xs">
          <Text size="sm">
            {t('consent.signedHow', {
              method: t(consent.signing_method === 'email' ? 'consent.method.email' : 'consent.method.in_person'),
            })}
          </Text>
          {consent.signed_at && (
            <Text size="sm">
              {t('consent.signedAt', {
                when: new Intl.DateTimeFormat(lang === 'es' ? 'es-CL' : 'en-US', {
                  dateStyle: 'long',
                  timeStyle: 'short',
                }).format(new Date(consent.signed_at)),
              })}
            </Text>
          )}
          <Text size="sm">
            {t('consent.serviceHash')} <Code data-testid="consent-service-hash">{consent.hash ?? '—'}</Code>
          </Text>
        </Stack>
      )}
    </Card>
  );
}

function Verification({ examId }: { examId: string }) {
  const { t } = useTranslation();
  const v = useVerification(examId, true);
  const [show, setShow] = useState(false);
  if (v.isPending)
    return (
      <Group gap="xs">
        <Loading size="sm" label={t('consent.verifying')} />
        <Text size="sm">{t('consent.verifying')}</Text>
      </Group>
    );
  if (v.error) return <ErrorAlert error={v.error} />;
  const r = v.data;
  return (
    <Stack gap="xs">
      {r.verified ? (
        <Group gap="sm">
          <Badge color="#216e39" size="lg" data-testid="consent-verified">
            {t('consent.verified')}
          </Badge>
          <Text size="sm">{t('consent.verifiedHelp')}</Text>
        </Group>
      ) : (
        <Alert color="red" role="alert" title={t('consent.mismatchTitle')} data-testid="consent-mismatch">
          <Text size="sm">{t('consent.mismatchHelp')}</Text>
          <Text size="sm">
            {t('consent.localHash')} <Code>{r.local_hash}</Code>
          </Text>
          <Text size="sm">
            {t('consent.serviceHash')} <Code>{r.service_hash ?? '—'}</Code>
          </Text>
        </Alert>
      )}
      {r.saved_to && (
        <Text size="sm" data-testid="consent-saved-to">
          {t('consent.savedTo', { path: r.saved_to })}
        </Text>
      )}
      {r.verified && !r.saved_to && (
        <Alert color="orange" title={t('consent.notSavedTitle')}>
          {t('consent.notSavedHelp', { reason: r.save_error ?? '' })}
        </Alert>
      )}
      <Group>
        <Button variant="default" onClick={() => setShow((s) => !s)} aria-expanded={show}>
          {show ? t('consent.hideSigned') : t('consent.viewSigned')}
        </Button>
        <DownloadLink
          pdfBase64={r.pdf_base64}
          name={`consent-${examId}-signed.pdf`}
          label={t('consent.downloadSigned')}
        />
      </Group>
      {show && (
        <PdfView base64={r.pdf_base64} label={t('consent.signedDocument')} layout={{ kind: 'scroll', height: 480 }} />
      )}
    </Stack>
  );
}

const PHASE_COLOR: Record<ConsentSessionView['phase'], string> = {
  waiting: 'gray.7',
  reading: 'blue.8',
  signing: 'indigo.8',
  signed: '#216e39',
};

/** One way to have the consent signed: a card with its title and a line on when to use it. */
function ConsentCard({ title, help, children }: { title: string; help: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={3} size="h4">
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {help}
      </Text>
      {children}
    </Card>
  );
}

function DisplayCard({ overview }: { overview: ConsentOverview }) {
  const { t } = useTranslation();
  const [signer, setSigner] = useState(overview.exam.patient_name ?? '');
  const open = useOpenDisplay();
  const close = useCloseDisplay();
  const session = overview.session;
  return (
    <ConsentCard title={t('consent.display.title')} help={t('consent.display.help')}>
      <TextInput
        label={t('consent.display.signer')}
        value={signer}
        onChange={(e) => setSigner(e.currentTarget.value)}
        maxLength={200}
      />
      <Group mt="sm">
        <Button
          onClick={() => open.mutate({ exam_id: overview.exam.id, signer_name: signer.trim() })}
          loading={open.isPending}
        >
          {session ? t('consent.display.reopen') : t('consent.display.open')}
        </Button>
        {session && (
          <Button variant="default" onClick={() => close.mutate({})}>
            {t('consent.display.close')}
          </Button>
        )}
      </Group>
      <ErrorAlert error={open.error ?? close.error} />
      {session && (
        <Stack gap={4} mt="sm" data-testid="consent-session" data-phase={session.phase}>
          <Group gap="xs">
            <Text size="sm">{t('consent.display.patientSide')}</Text>
            <Badge color={PHASE_COLOR[session.phase]}>{t(`consent.phase.${session.phase}`)}</Badge>
          </Group>
          {session.patient_url && (
            <Text size="sm">
              {t('consent.display.pageHelp')}{' '}
              <Anchor href={session.patient_url} target="_blank" rel="noopener" data-testid="patient-page-link">
                {t('consent.display.pageLink')}
              </Anchor>
            </Text>
          )}
        </Stack>
      )}
    </ConsentCard>
  );
}

/** The e-mail signing request: one address and the patient's name; Send stays off until both are right. */
const emailRequestSchema = z.object({
  to: z.string().trim().pipe(emailAddress),
  name: z.string().trim().min(1),
});

function EmailCard({ overview, sandbox }: { overview: ConsentOverview; sandbox: boolean }) {
  const { t } = useTranslation();
  const form = useCheckedForm(emailRequestSchema, { to: '', name: overview.exam.patient_name ?? '' });
  const [sent, setSent] = useState<ConsentEmailView | null>(null);
  const send = useEmailConsent(setSent);
  const canSend = form.isValid();
  return (
    <ConsentCard title={t('consent.email.title')} help={t('consent.email.help')}>
      <form
        onSubmit={form.onSubmit(({ to, name }) =>
          send.mutate({ exam_id: overview.exam.id, to: to.trim(), patient_name: name.trim() }),
        )}
      >
        <Stack gap="xs">
          <TextInput
            label={t('consent.email.to')}
            type="email"
            {...form.getInputProps('to', { withError: false })}
            required
            autoComplete="off"
          />
          <TextInput
            label={t('consent.email.patient')}
            {...form.getInputProps('name', { withError: false })}
            required
            maxLength={200}
          />
          <Group>
            <Button type="submit" disabled={!canSend} loading={send.isPending}>
              {t('consent.email.send')}
            </Button>
          </Group>
        </Stack>
      </form>
      <ErrorAlert
        error={send.error}
        check={{ action: 'consent', exam_id: overview.exam.id }}
        note={t('maybeDone.consent.emailNote')}
      />
      {sent && (
        <Stack gap="xs" mt="sm" data-testid="consent-email-sent">
          <Text size="sm" fw={600}>
            {sent.sent ? t('consent.email.sent') : sandbox ? t('consent.email.testKey') : t('consent.email.notSent')}
          </Text>
          <Text size="sm">{t('consent.email.qrHelp')}</Text>
          <QRCodeSVG
            value={sent.sign_url}
            size={168}
            marginSize={2}
            title={t('consent.email.qrTitle')}
            data-testid="consent-qr"
          />
          <Code data-testid="consent-sign-url" style={{ wordBreak: 'break-all' }}>
            {sent.sign_url}
          </Code>
        </Stack>
      )}
    </ConsentCard>
  );
}

/** The exam's informed consent: start it, have it signed on the patient display or by e-mail, verify the signed PDF. */
export function ConsentPanel() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { examId = '' } = useParams();
  const refresh = useRefreshConsent(examId);
  const overview = useConsentOverview(examId);
  const sandbox = useKeysStatus().data?.active === 'sandbox';
  const [alreadySigned, setAlreadySigned] = useState(false);
  const [showBlank, setShowBlank] = useState(false);
  const consent = overview.data?.consent;
  useConsentEvents(examId);
  useConsentWatch(examId, consent?.status === 'pending');
  const blank = useBlankPdf(examId, showBlank);
  const start = useStartConsent(examId, (r) => setAlreadySigned(r.outcome === 'already_signed'));

  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{t('consent.title')}</Title>
      {overview.isPending && <Loading />}
      <ErrorAlert error={overview.error} />
      {overview.data && consent && (
        <>
          <Text>
            {t('consent.exam', { name: overview.data.exam.name })}
            {overview.data.exam.patient_name
              ? ` · ${t('consent.patient', { name: overview.data.exam.patient_name })}`
              : ''}
          </Text>
          <StatusCard consent={consent} />
          {alreadySigned && (
            <Alert
              color="blue"
              role="status"
              title={t('consent.alreadySignedTitle')}
              data-testid="consent-already-signed"
            >
              {t('consent.alreadySignedHelp')}
            </Alert>
          )}
          <Group>
            <Button
              variant={consent.status === 'none' ? 'filled' : 'default'}
              onClick={() => start.mutate({ exam_id: examId, locale: lang })}
              loading={start.isPending}
            >
              {consent.status === 'none' ? t('consent.start') : t('consent.startAgain')}
            </Button>
            {consent.status !== 'none' && (
              <Button variant="default" onClick={() => setShowBlank((s) => !s)} aria-expanded={showBlank}>
                {showBlank ? t('consent.hideBlank') : t('consent.viewBlank')}
              </Button>
            )}
            {showBlank && blank.data && (
              <DownloadLink
                pdfBase64={blank.data.pdf_base64}
                name={`consent-${examId}.pdf`}
                label={t('consent.downloadBlank')}
              />
            )}
          </Group>
          <ErrorAlert
            error={start.error ?? blank.error}
            check={start.error ? { action: 'consent', exam_id: examId } : undefined}
            onFound={(f) => {
              if (f.action === 'consent' && f.status !== consent.status) refresh();
            }}
          />
          {showBlank && blank.isPending && <Loading />}
          {showBlank && blank.data && (
            <PdfView
              base64={blank.data.pdf_base64}
              label={t('consent.blankDocument')}
              layout={{ kind: 'scroll', height: 420 }}
            />
          )}
          {consent.status === 'pending' && (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <DisplayCard overview={overview.data} />
              <EmailCard overview={overview.data} sandbox={sandbox} />
            </SimpleGrid>
          )}
          {consent.status === 'signed' && <Verification examId={examId} />}
        </>
      )}
    </Stack>
  );
}
