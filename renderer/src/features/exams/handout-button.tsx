// "Print the patient's sheet": main makes the PDF (main/core/handout/handout-pdf.ts) in the
// window's language. The desktop app shows the system's print dialog for it; in browser mode (or
// when the dialog could not be shown) the browser downloads it.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExamView } from '../../../../preload/contract';
import { useAppInfo } from '../../app/queries';
import { ErrorAlert } from '../../components/error-alert';
import { useLanguage } from '../../components/use-language';
import { downloadBytes } from '../../components/download';
import { useHandout } from './exam-queries';

export function HandoutButton({ exam }: { exam: ExamView }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const desktop = useAppInfo().data?.transport === 'ipc';
  // The note's text key, not its words: they follow a language switch while the note is shown.
  const [note, setNote] = useState<{ key: string; file?: string } | null>(null);
  const sheet = useHandout((r) => {
    if (r.opened) return setNote({ key: 'exams.share.printOpened' });
    downloadBytes(r.pdf_base64, r.file_name, 'application/pdf');
    setNote({ key: desktop ? 'exams.share.printNotOpened' : 'exams.share.printDownloaded', file: r.file_name });
  });
  return (
    <Stack gap={4} data-testid="handout">
      <Button
        variant="light"
        onClick={() => {
          setNote(null);
          sheet.mutate({ exam_id: exam.id, language, open: desktop });
        }}
        loading={sheet.isPending}
        disabled={exam.status !== 'ready'}
        data-testid="handout-print"
      >
        {t('exams.share.print')}
      </Button>
      <Text size="xs" c="dimmed">
        {t('exams.share.printHelp')}
      </Text>
      {note && (
        <Alert color="teal" role="status" data-testid="handout-result">
          {t(note.key, { file: note.file })}
        </Alert>
      )}
      <ErrorAlert error={sheet.error} />
    </Stack>
  );
}
