import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import type { FileRejection } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExamView, ReportView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { formatBytes } from '../../components/format';
import { toBase64 } from '../../components/pdf/base64';
import { PdfView } from '../../components/pdf/pdf-view';
import { useLanguage } from '../../components/use-language';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDateTime } from './exam-badges';
import { useExamOutlet } from './exam-layout';
import {
  useDeleteReport,
  useRefreshReport,
  useReport,
  useReportPdf,
  useSignReport,
  useUploadReport,
} from './exam-queries';
import { checkReportFile, MAX_REPORT_BYTES } from './report-file';
import type { PdfProblem } from './report-file';
import { Loading } from '../../components/loading';

type Picked = { name: string; bytes: Uint8Array };

function PdfDrop({ onPicked, busy }: { onPicked: (file: Picked) => void; busy: boolean }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<PdfProblem | null>(null);
  const size = formatBytes(MAX_REPORT_BYTES, lang);
  const take = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    setChecking(true);
    const checked = await checkReportFile(file);
    setChecking(false);
    if (!checked.ok) setProblem(checked.problem);
    else onPicked({ name: file.name, bytes: checked.bytes });
  };
  const rejected = (r: FileRejection[]) => {
    const code = r[0]?.errors[0]?.code;
    setProblem(code === 'file-too-large' ? 'tooLarge' : 'notPdf');
  };
  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={(files) => void take(files[0])}
        onReject={rejected}
        accept={['application/pdf']}
        maxSize={MAX_REPORT_BYTES}
        multiple={false}
        loading={checking || busy}
        data-testid="report-drop"
        aria-label={t('exams.report.drop')}
      >
        <Stack align="center" gap={4} py="md" style={{ pointerEvents: 'none' }}>
          <Text fw={600}>{t('exams.report.drop')}</Text>
          <Text size="sm" c="dimmed">
            {t('exams.report.dropHelp', { size })}
          </Text>
        </Stack>
      </Dropzone>
      {problem && (
        <Alert color="red" role="alert" data-testid="report-problem" data-problem={problem}>
          {t(`exams.report.${problem}`, { size })}
        </Alert>
      )}
    </Stack>
  );
}

function Signature({ report }: { report: ReportView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const sig = report.signature;
  if (!sig) return null;
  return (
    <Paper withBorder p="md" data-testid="report-signature">
      <Group align="flex-start" justify="space-between" wrap="nowrap">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Title order={4} size="h5">
            {t('exams.report.signatureTitle')}
          </Title>
          <Text size="sm">
            <b>{t('exams.report.signatureId')}:</b> <span data-testid="signature-id">{sig.signature_id}</span>
          </Text>
          {sig.signed_at && (
            <Text size="sm">
              <b>{t('exams.report.signedAt')}:</b> {formatDateTime(sig.signed_at, lang)}
            </Text>
          )}
          {sig.verification_url && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <b>{t('exams.report.verification')}:</b>{' '}
              <Anchor
                href={sig.verification_url}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="verification-url"
              >
                {sig.verification_url}
              </Anchor>
            </Text>
          )}
        </Stack>
        {sig.verification_url && (
          <QRCodeSVG
            value={sig.verification_url}
            size={112}
            role="img"
            aria-label={t('exams.report.verificationQr')}
            title={t('exams.report.verificationQr')}
            data-testid="verification-qr"
          />
        )}
      </Group>
    </Paper>
  );
}

function ReportDetails({ exam, report }: { exam: ExamView; report: ReportView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [viewing, setViewing] = useState(false);
  const [confirm, setConfirm] = useState<'sign' | 'delete' | null>(null);
  const pdf = useReportPdf(exam.id, viewing);
  const refresh = useRefreshReport(exam.id);
  const sign = useSignReport(exam.id, () => setConfirm(null));
  const remove = useDeleteReport(exam.id, () => setConfirm(null));
  // A lost answer is shown beside the report, with what the look found: the question is over.
  useEffect(() => {
    if (sign.error?.code === 'maybe_done') setConfirm(null);
  }, [sign.error]);
  const name = report.filename ?? '';
  return (
    <Stack gap="sm" data-testid="report-details" data-signed={String(report.signed)}>
      <dl className="facts">
        <dt>{t('exams.report.file')}</dt>
        <dd data-testid="report-filename">{name}</dd>
        {report.size_bytes !== null && (
          <>
            <dt>{t('exams.report.size')}</dt>
            <dd>{formatBytes(report.size_bytes, lang)}</dd>
          </>
        )}
        {report.uploaded_at && (
          <>
            <dt>{t('exams.report.uploadedAt')}</dt>
            <dd>{formatDateTime(report.uploaded_at, lang)}</dd>
          </>
        )}
        <dt>{t('exams.report.state')}</dt>
        <dd data-testid="report-state">{report.signed ? t('exams.report.signed') : t('exams.report.unsigned')}</dd>
      </dl>
      <Group gap="sm">
        <Button
          variant={viewing ? 'default' : 'filled'}
          onClick={() => setViewing((v) => !v)}
          data-testid="report-view"
        >
          {viewing ? t('exams.report.hide') : t('exams.report.view')}
        </Button>
        {!report.signed && (
          <Button variant="default" onClick={() => setConfirm('sign')} data-testid="report-sign">
            {t('exams.report.sign')}
          </Button>
        )}
        <Button variant="default" color="red" onClick={() => setConfirm('delete')} data-testid="report-delete">
          {t('exams.report.delete')}
        </Button>
      </Group>
      <ErrorAlert
        error={sign.error ?? remove.error ?? pdf.error}
        check={sign.error ? { action: 'report_sign', exam_id: exam.id } : undefined}
        onFound={(f) => {
          if (f.action === 'report_sign' && f.signed) refresh();
        }}
      />
      <Signature report={report} />
      {viewing && pdf.isPending && (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('exams.report.loadingPdf')}</Text>
        </Group>
      )}
      {viewing && pdf.data && (
        <PdfView base64={pdf.data.base64} label={t('exams.report.title')} layout={{ kind: 'paged' }} />
      )}
      <ConfirmDialog
        opened={confirm === 'sign'}
        title={t('exams.report.signTitle')}
        body={t('exams.report.signBody')}
        confirm={t('exams.report.signConfirm')}
        loading={sign.isPending}
        onConfirm={() => sign.mutate({ exam_id: exam.id })}
        onClose={() => setConfirm(null)}
        testId="report-sign-modal"
      />
      <ConfirmDialog
        opened={confirm === 'delete'}
        title={t('exams.report.deleteTitle')}
        body={t('exams.report.deleteBody', { name })}
        confirm={t('exams.report.deleteConfirm')}
        danger
        loading={remove.isPending}
        onConfirm={() => remove.mutate({ exam_id: exam.id })}
        onClose={() => setConfirm(null)}
        testId="report-delete-modal"
      />
    </Stack>
  );
}

/** `report`: the exam's radiology report — upload (checked here first), view, sign, replace, delete. */
export function ReportPanel() {
  const { t } = useTranslation();
  const { exam } = useExamOutlet();
  const report = useReport(exam.id);
  const refresh = useRefreshReport(exam.id);
  const [pending, setPending] = useState<Picked | null>(null);
  const [done, setDone] = useState(false);
  const upload = useUploadReport(exam.id, () => {
    setPending(null);
    setDone(true);
  });
  const send = (file: Picked) => {
    setDone(false);
    upload.mutate({ exam_id: exam.id, filename: file.name, base64: toBase64(file.bytes) });
  };
  const current = report.data?.report ?? null;
  return (
    <Paper
      withBorder
      p="md"
      maw={960}
      data-testid="report-panel"
      data-state={report.data ? (current ? 'present' : 'none') : 'loading'}
    >
      <Stack gap="md">
        <Title order={3} size="h4">
          {t('exams.report.title')}
        </Title>
        {report.isPending && <Loading />}
        <ErrorAlert
          error={report.error ?? upload.error}
          check={!report.error && upload.error ? { action: 'report_upload', exam_id: exam.id } : undefined}
          onFound={(f) => {
            if (f.action === 'report_upload' && f.present) refresh();
          }}
        />
        {done && (
          <Alert color="teal" role="status" data-testid="report-uploaded">
            {t('exams.report.uploaded')}
          </Alert>
        )}
        {upload.isPending && (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">{t('exams.report.uploading')}</Text>
          </Group>
        )}
        {report.data && !current && (
          <>
            <Text size="sm" c="dimmed" data-testid="report-none">
              {t('exams.report.none')}
            </Text>
            <PdfDrop onPicked={send} busy={upload.isPending} />
          </>
        )}
        {current && (
          <>
            <ReportDetails exam={exam} report={current} />
            <Title order={4} size="h5">
              {t('exams.report.replace')}
            </Title>
            <PdfDrop onPicked={setPending} busy={upload.isPending} />
          </>
        )}
      </Stack>
      <ConfirmDialog
        opened={pending !== null}
        title={t('exams.report.replaceTitle')}
        body={t('exams.report.replaceBody', { name: current?.filename ?? '', next: pending?.name ?? '' })}
        confirm={t('exams.report.replaceConfirm')}
        loading={upload.isPending}
        onConfirm={() => pending && send(pending)}
        onClose={() => setPending(null)}
        testId="report-replace-modal"
      />
    </Paper>
  );
}
