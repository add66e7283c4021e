import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { AccountPage } from '../features/account/account-page';
import { ActivityPage } from '../features/activity/activity-page';
import { ImplantsPage } from '../features/implants/implants-page';
import { examRoutes } from '../features/exams/exam-routes';
import { InboxPage } from '../features/inbox/inbox-page';
import { OnboardingPage } from '../features/onboarding/onboarding-page';
import { ReferrersPage } from '../features/referrers/referrers-page';
import { SettingsPage } from '../features/settings/settings-page';
import { SupportPage } from '../features/support/support-page';
import { TemplateEditorPage } from '../features/templates/template-editor-page';
import { TemplatesPage } from '../features/templates/templates-page';
import { UploadsPage } from '../features/uploads/uploads-page';
import { WebhooksPage } from '../features/webhooks/webhooks-page';
import { KeyGate } from './key-gate';

export const routes: RouteObject[] = [
  { path: '/onboarding', element: <OnboardingPage /> },
  {
    path: '/',
    element: <KeyGate />,
    children: [
      { index: true, element: <Navigate to="/inbox" replace /> },
      { path: 'inbox', element: <InboxPage /> },
      { path: 'uploads', element: <UploadsPage /> },
      { path: 'support', element: <SupportPage /> },
      { path: 'activity', element: <ActivityPage /> },
      { path: 'webhooks', element: <WebhooksPage /> },
      ...examRoutes,
      { path: 'account', element: <AccountPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'referrers', element: <ReferrersPage /> },
      { path: 'templates', element: <TemplatesPage /> },
      { path: 'templates/new', element: <TemplateEditorPage /> },
      { path: 'templates/:templateId', element: <TemplateEditorPage /> },
      { path: 'implants', element: <ImplantsPage /> },
      { path: '*', element: <Navigate to="/inbox" replace /> },
    ],
  },
];
