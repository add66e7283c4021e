import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useOutletContext, useParams } from 'react-router';
import type { ExamView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { ExamStatusBadge, ExamTypeBadge } from './exam-badges';
import { useExam } from './exam-queries';
import './exams.css';
import { Loading } from '../../components/loading';

export type ExamOutlet = { exam: ExamView };

/** The exam of the detail page, for the panels nested under it. */
export function useExamOutlet(): ExamOutlet {
  return useOutletContext<ExamOutlet>();
}

const TABS = [
  { to: '', key: 'overview', end: true },
  { to: 'edit', key: 'edit', end: false },
  { to: 'share', key: 'share', end: false },
  { to: 'report', key: 'report', end: false },
  { to: 'takes', key: 'takes', end: false },
  { to: 'consent', key: 'consent', end: false },
] as const;

/** `/exams/:examId`: the exam's name and badges, its sections as tabs (nested routes), and the open section. */
export function ExamLayout() {
  const { t } = useTranslation();
  const examId = useParams()['examId'] ?? '';
  const exam = useExam(examId);
  const base = `/exams/${encodeURIComponent(examId)}`;
  return (
    <Stack gap="md" data-testid="exam-detail" data-exam-id={examId}>
      <Anchor component={Link} to="/exams" size="sm" data-testid="exam-back">
        ← {t('exams.back')}
      </Anchor>
      {exam.isPending && <Loading />}
      {exam.error?.code === 'not_found' ? (
        <Alert color="yellow" title={t('exams.notFoundTitle')} data-testid="exam-not-found">
          <Text size="sm">{t('exams.notFoundBody')}</Text>
        </Alert>
      ) : (
        <ErrorAlert error={exam.error} />
      )}
      {exam.data && (
        <>
          <Group justify="space-between" wrap="nowrap">
            <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="exam-title">
              {exam.data.name}
            </Title>
            <Group gap="xs" wrap="nowrap">
              <ExamTypeBadge type={exam.data.exam_type} />
              <ExamStatusBadge status={exam.data.status} />
            </Group>
          </Group>
          <nav aria-label={t('exams.tabsLabel')}>
            <Group gap={4} style={{ borderBottom: '1px solid var(--mantine-color-gray-4)' }} pb={4}>
              {TABS.map((tab) => (
                <NavLink
                  key={tab.key}
                  to={tab.to ? `${base}/${tab.to}` : base}
                  end={tab.end}
                  data-testid={`exam-tab-${tab.key}`}
                  style={{ textDecoration: 'none' }}
                >
                  {({ isActive }) => (
                    <Button component="span" variant={isActive ? 'filled' : 'subtle'} size="sm" tabIndex={-1}>
                      {t(`exams.tabs.${tab.key}`)}
                    </Button>
                  )}
                </NavLink>
              ))}
            </Group>
          </nav>
          <Outlet context={{ exam: exam.data } satisfies ExamOutlet} />
        </>
      )}
    </Stack>
  );
}
