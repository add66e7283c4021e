import type { RouteObject } from 'react-router';
import { ConsentPanel } from '../consent/consent-panel';
import { TakesPanel } from '../takes/takes-panel';
import { EditPanel } from './edit-panel';
import { ExamLayout } from './exam-layout';
import { ExamsPage } from './exams-page';
import { OverviewPanel } from './overview-panel';
import { SharePanel } from './share-panel';

/**
 * The exam workspace: `/exams` and `/exams/:examId` with its sections as nested routes. The `takes`
 * and `consent` sections come from their own feature folders.
 */
export const examRoutes: RouteObject[] = [
  { path: 'exams', element: <ExamsPage /> },
  {
    path: 'exams/:examId',
    element: <ExamLayout />,
    children: [
      { index: true, element: <OverviewPanel /> },
      { path: 'edit', element: <EditPanel /> },
      { path: 'share', element: <SharePanel /> },
      // pdf.js is large: the report section loads it when first opened, not at start-up.
      { path: 'report', lazy: async () => ({ Component: (await import('./report-panel')).ReportPanel }) },
      { path: 'takes', element: <TakesPanel /> },
      { path: 'consent', element: <ConsentPanel /> },
    ],
  },
];
