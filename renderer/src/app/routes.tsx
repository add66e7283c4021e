import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { AccountPage } from '../features/account/account-page';
import { InboxPage } from '../features/inbox/inbox-page';
import { OnboardingPage } from '../features/onboarding/onboarding-page';
import { SettingsPage } from '../features/settings/settings-page';
import { TakesPanel } from '../features/takes/takes-panel';
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
      { path: '*', element: <Navigate to="/inbox" replace /> },
    ],
  },
];
