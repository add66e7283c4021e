import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { AccountPage } from '../features/account/account-page';
import { ActivityPage } from '../features/activity/activity-page';
import { InboxPage } from '../features/inbox/inbox-page';
import { OnboardingPage } from '../features/onboarding/onboarding-page';
import { SettingsPage } from '../features/settings/settings-page';
import { SupportPage } from '../features/support/support-page';
import { UploadsPage } from '../features/uploads/uploads-page';
import { WebhooksPage } from '../features/webhooks/webhooks-page';
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
      { path: 'support', element: <SupportPage /> },
      { path: 'activity', element: <ActivityPage /> },
      { path: 'webhooks', element: <WebhooksPage /> },
      { path: 'account', element: <AccountPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: '*', element: <Navigate to="/inbox" replace /> },
    ],
  },
];
