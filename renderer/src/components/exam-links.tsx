// The two ways into an uploaded exam, as the Inbox and the Uploads screen both offer them: the
// exam's page in this window, and the service's viewer in the browser.
import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** "Open the exam" (when its id is known) and "Open in the viewer" (when its address is); `testIdPrefix` names them per screen. */
export function ExamLinks({
  examId,
  viewerUrl,
  testIdPrefix = '',
}: {
  examId: string | null | undefined;
  viewerUrl: string | null | undefined;
  testIdPrefix?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {examId && (
        <Anchor
          component={Link}
          to={`/exams/${encodeURIComponent(examId)}`}
          size="sm"
          fw={600}
          data-testid={`${testIdPrefix}exam-link`}
        >
          {t('exams.openExam')}
        </Anchor>
      )}
      {viewerUrl && (
        <Anchor
          href={viewerUrl}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          fw={600}
          data-testid={`${testIdPrefix}viewer-link`}
        >
          {t('uploads.openViewer')}
        </Anchor>
      )}
    </>
  );
}
