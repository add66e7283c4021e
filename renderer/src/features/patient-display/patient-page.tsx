import { Alert, Box, Button, Center, Checkbox, Grid, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { QRCodeSVG } from 'qrcode.react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { ContractError, PatientView } from '../../../../preload/contract';
import { applyLanguage } from '../../app/i18n';
import { problemsOf, useCheckedForm } from '../../components/checked-form';
import { PdfView } from '../../components/pdf/pdf-view';
import type { PatientTransport } from './patient-transport';
import { formatRutAsTyped, rutProblem } from './rut';
import type { SignatureHandle } from './signature-field';
import { SignatureField } from './signature-field';
import { Loading } from '../../components/loading';

/** How often the display asks whether a session started (a local call: it costs no API calls). */
const POLL_MS = 1500;
/** Refusals of a signature the patient can correct, each with its own words (`patient.error_<code>`). */
const PATIENT_ERRORS = [
  'invalid_rut',
  'missing_hyphen',
  'already_signed',
  'signer_name_required',
  'signer_document_required',
  'signature_blank',
  'signature_invalid',
  'maybe_done',
];
/** How long the thank-you stays before the display goes back to idle. */
export const THANKS_MS = 8000;

type ActiveView = Extract<PatientView, { state: 'active' }>;

function Idle() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" p="xl">
      <Stack align="center" gap="md" data-testid="patient-idle">
        <Title order={1} ta="center">
          {t('patient.idleTitle')}
        </Title>
        <Text size="xl" ta="center">
          {t('patient.idleHelp')}
        </Text>
      </Stack>
    </Center>
  );
}

function Thanks() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" p="xl">
      <Stack align="center" gap="md" data-testid="patient-thanks" role="status">
        <Title order={1} ta="center">
          {t('patient.thanksTitle')}
        </Title>
        <Text size="xl" ta="center">
          {t('patient.thanksHelp')}
        </Text>
      </Stack>
    </Center>
  );
}

const today = (): string => new Date().toISOString().slice(0, 10);

/** The consent document for the session: loaded once, and whether the patient has read it to the end. */
function useConsentDocument(transport: PatientTransport, session: string, onEnded: () => void) {
  const [pdf, setPdf] = useState<string | null>(null);
  const [pdfError, setPdfError] = useState<ContractError | null>(null);
  const [read, setRead] = useState(false);

  useEffect(() => {
    let live = true;
    transport.call('patient:pdf', { session_id: session }).then(
      (r) => live && setPdf(r.pdf_base64),
      (e: ContractError) => live && (e.code === 'session_ended' || e.code === 'bad_token' ? onEnded() : setPdfError(e)),
    );
    transport.call('patient:progress', { session_id: session, phase: 'reading' }).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [transport, session, onEnded]);

  const readToEnd = useCallback(() => {
    setRead(true);
    transport.call('patient:progress', { session_id: session, phase: 'signing' }).catch(() => undefined);
  }, [transport, session]);

  return { pdf, pdfError, read, readToEnd };
}

type SignerValues = { name: string; doc: string; birth: string; accepted: boolean };

/**
 * The signer's answers as the form checks them; each message is a key under `patient.`. The document
 * is a RUT in Chile (its check digit checked), any number elsewhere.
 */
function signerSchema(chile: boolean) {
  return z.object({
    name: z.string().trim().min(1, 'nameMissing'),
    doc: z.string().superRefine((doc, ctx) => {
      const problem = chile ? rutProblem(doc) : doc.trim() === '' ? 'empty' : null;
      if (!problem) return;
      const message = problem === 'empty' ? (chile ? 'rutMissing' : 'documentMissing') : `rut_${problem}`;
      ctx.addIssue({ code: 'custom', message });
    }),
    accepted: z.boolean().refine((a) => a, 'acceptMissing'),
  });
}

/** The signer's answers, and sending them once each is checked: the first problem found is the one shown. */
function useSigning(
  view: ActiveView,
  transport: PatientTransport,
  read: boolean,
  t: TFunction,
  onSigned: () => void,
  onEnded: () => void,
) {
  const session = view.session_id;
  const chile = view.country_code === 'CL';
  const [schema] = useState(() => signerSchema(chile));
  const form = useCheckedForm<SignerValues>(schema, { name: view.signer_name, doc: '', birth: '', accepted: false });
  const [docTouched, setDocTouched] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pad = useRef<SignatureHandle>(null);

  // One problem at a time, in the order the form reads: under the document field once it has been left
  // (a wrong RUT, not an empty one), and the first of all in the alert on Sign.
  const problems = problemsOf(schema, form.values);
  const docError = docTouched && problems.doc?.startsWith('rut_') ? t(`patient.${problems.doc}`) : null;

  const submit = async (): Promise<void> => {
    setProblem(null);
    setDocTouched(true);
    if (!read) return setProblem(t('patient.readFirst'));
    const first = problems.name ?? problems.doc;
    if (first) return setProblem(t(`patient.${first}`));
    const signature = pad.current?.read();
    if (!signature || 'problem' in signature)
      return setProblem(
        t(signature?.problem === 'too_short' ? 'patient.signatureTooShort' : 'patient.signatureMissing'),
      );
    if (problems.accepted) return setProblem(t(`patient.${problems.accepted}`));
    const { name, doc, birth } = form.getValues();
    setBusy(true);
    try {
      await transport.call('patient:sign', {
        session_id: session,
        signer_name: name.trim(),
        document: doc.trim(),
        birth_date: birth || null,
        signature_png: signature.png,
        accepted: true,
      });
      onSigned();
    } catch (e) {
      const err = e as ContractError;
      if (err.code === 'session_ended' || err.code === 'bad_token') onEnded();
      else setProblem(t(`patient.error_${PATIENT_ERRORS.includes(err.code) ? err.code : 'other'}`));
    } finally {
      setBusy(false);
    }
  };

  return {
    form,
    setDocTouched,
    docError,
    problem,
    setProblem,
    busy,
    pad,
    chile,
    submit,
  };
}

type Signing = ReturnType<typeof useSigning>;

/** The signer's name, document, birth date, signature and acceptance, usable once the document is read. */
function SignerForm({ signing, read, signUrl }: { signing: Signing; read: boolean; signUrl: ActiveView['sign_url'] }) {
  const { t } = useTranslation();
  const { form, setDocTouched, docError, problem, setProblem, busy, pad, chile, submit } = signing;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      aria-describedby="read-help"
    >
      <Stack gap="sm">
        {signUrl && (
          <Group gap="sm" wrap="nowrap" data-testid="patient-qr">
            <QRCodeSVG value={signUrl} size={96} marginSize={2} title={t('patient.phoneQr')} />
            <Text size="sm">{t('patient.phoneHelp')}</Text>
          </Group>
        )}
        <TextInput
          label={t('patient.name')}
          {...form.getInputProps('name', { withError: false })}
          maxLength={200}
          required
          size="md"
          disabled={!read}
        />
        <TextInput
          label={chile ? t('patient.rut') : t('patient.documentNumber')}
          description={chile ? t('patient.rutHelp') : undefined}
          {...form.getInputProps('doc', { withError: false })}
          onChange={(e) =>
            form.setFieldValue('doc', chile ? formatRutAsTyped(e.currentTarget.value) : e.currentTarget.value)
          }
          onBlur={() => setDocTouched(true)}
          error={docError}
          maxLength={chile ? 12 : 50}
          required
          size="md"
          autoComplete="off"
          disabled={!read}
          data-testid="patient-document"
        />
        <TextInput
          label={t('patient.birthDate')}
          type="date"
          {...form.getInputProps('birth', { withError: false })}
          max={today()}
          size="md"
          disabled={!read}
        />
        <SignatureField ref={pad} label={t('patient.signature')} disabled={!read} onChange={() => setProblem(null)} />
        <Checkbox
          label={t('patient.accept')}
          {...form.getInputProps('accepted', { type: 'checkbox', withError: false })}
          size="md"
          disabled={!read}
        />
        {problem && (
          <Alert color="red" role="alert" data-testid="patient-problem">
            {problem}
          </Alert>
        )}
        <Button type="submit" size="lg" loading={busy} disabled={!read}>
          {t('patient.submit')}
        </Button>
      </Stack>
    </form>
  );
}

function SigningForm({
  view,
  transport,
  onSigned,
  onEnded,
}: {
  view: ActiveView;
  transport: PatientTransport;
  onSigned: () => void;
  onEnded: () => void;
}) {
  const { t } = useTranslation();
  const { pdf, pdfError, read, readToEnd } = useConsentDocument(transport, view.session_id, onEnded);
  const signing = useSigning(view, transport, read, t, onSigned, onEnded);
  // A tablet held upright: the document on top, shorter, so the form is close below it.
  const portrait = useMediaQuery('(orientation: portrait)') ?? false;

  return (
    <Box p="md" mih="100vh">
      <Title order={1} size="h2" mb="sm">
        {t('patient.title')}
      </Title>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Text mb="xs" fw={600} id="read-help">
            {read ? t('patient.readDone') : t('patient.readHelp')}
          </Text>
          {pdfError && (
            <Alert color="red" role="alert">
              {t('patient.pdfFailed')}
            </Alert>
          )}
          {!pdf && !pdfError && <Loading />}
          {pdf && (
            <PdfView
              base64={pdf}
              label={t('patient.document')}
              layout={{ kind: 'scroll', height: portrait ? '55vh' : 'calc(100vh - 140px)', onReadToEnd: readToEnd }}
            />
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <SignerForm signing={signing} read={read} signUrl={view.sign_url} />
        </Grid.Col>
      </Grid>
    </Box>
  );
}

/** The patient display: idle, the consent to read and sign, then a thank-you that returns to idle by itself. */
export function PatientPage({ transport }: { transport: PatientTransport }) {
  const [view, setView] = useState<PatientView>({ state: 'idle' });
  const [thanks, setThanks] = useState(false);
  const [ready, setReady] = useState(false);
  const sessionRef = useRef<string | undefined>(undefined);

  const refresh = useCallback(async () => {
    try {
      const v = await transport.call('patient:session', sessionRef.current ? { session_id: sessionRef.current } : {});
      // A different session: forget the old one entirely (nothing of another patient stays on screen).
      sessionRef.current = v.state === 'active' ? v.session_id : undefined;
      setView((old) => (JSON.stringify(old) === JSON.stringify(v) ? old : v));
    } catch {
      sessionRef.current = undefined;
      setView({ state: 'idle' });
    } finally {
      setReady(true);
    }
  }, [transport]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  useEffect(() => {
    if (view.state === 'active') applyLanguage(view.language);
  }, [view]);

  useEffect(() => {
    if (!thanks) return;
    const timer = setTimeout(() => setThanks(false), THANKS_MS);
    return () => clearTimeout(timer);
  }, [thanks]);

  const onSigned = useCallback(() => {
    sessionRef.current = undefined;
    setView({ state: 'idle' });
    setThanks(true);
  }, []);
  const onEnded = useCallback(() => {
    sessionRef.current = undefined;
    setView({ state: 'idle' });
  }, []);

  if (!ready)
    return (
      <Center h="100vh">
        <Loading />
      </Center>
    );
  if (thanks)
    return (
      <main>
        <Thanks />
      </main>
    );
  if (view.state === 'idle')
    return (
      <main>
        <Idle />
      </main>
    );
  return (
    <main>
      <SigningForm key={view.session_id} view={view} transport={transport} onSigned={onSigned} onEnded={onEnded} />
    </main>
  );
}
