import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { AccountPage } from '../features/account/account-page';
import { examRoutes } from '../features/exams/exam-routes';
import { InboxPage } from '../features/inbox/inbox-page';
import { OnboardingPage } from '../features/onboarding/onboarding-page';
import { SettingsPage } from '../features/settings/settings-page';
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
      ...examRoutes,
      { path: 'account', element: <AccountPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: '*', element: <Navigate to="/inbox" replace /> },
    ],
  },
];
