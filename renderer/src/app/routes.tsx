import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { AccountPage } from '../features/account/account-page';
import { ConsentPanel } from '../features/consent/consent-panel';
import { ImplantsPage } from '../features/implants/implants-page';
import { InboxPage } from '../features/inbox/inbox-page';
import { OnboardingPage } from '../features/onboarding/onboarding-page';
import { ReferrersPage } from '../features/referrers/referrers-page';
import { SettingsPage } from '../features/settings/settings-page';
import { TakesPanel } from '../features/takes/takes-panel';
import { TemplateEditorPage } from '../features/templates/template-editor-page';
import { TemplatesPage } from '../features/templates/templates-page';
import { UploadsPage } from '../features/uploads/uploads-page';
import { Gate } from './gate';

export const routes: RouteObject[] = [
  { path: '/onboarding', element: <OnboardingPage /> },
  {
    path: '/',
    element: <Gate />,
    children: [
      { index: true, element: <Navigate to="/inbox" replace /> },
      { path: 'inbox', element: <InboxPage /> },
      { path: 'uploads', element: <UploadsPage /> },
      { path: 'account', element: <AccountPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'exams/:examId/takes', element: <TakesPanel /> },
      { path: 'exams/:examId/consent', element: <ConsentPanel /> },
      { path: 'referrers', element: <ReferrersPage /> },
      { path: 'templates', element: <TemplatesPage /> },
      { path: 'templates/new', element: <TemplateEditorPage /> },
      { path: 'templates/:templateId', element: <TemplateEditorPage /> },
      { path: 'implants', element: <ImplantsPage /> },
      { path: '*', element: <Navigate to="/inbox" replace /> },
    ],
  },
];
