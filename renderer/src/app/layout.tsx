import { Alert, AppShell, Badge, Group, NavLink, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router';
import { KeyIndicator } from '../components/key-indicator';
import { LanguageSwitch } from '../components/language-switch';
import { RateGauge } from '../components/rate-gauge';
import { SandboxBanner } from '../components/sandbox-banner';
import { SettingsDamageAlert } from '../components/settings-damage-alert';
import { NotificationBell } from '../features/notifications/notification-bell';
import { useConnectionState } from './connection';
import { useAccount, useInbox, useKeysStatus, useRate, useUploads } from './queries';

const HEADER = 60;
const BANNER = 36;
const ACTIVE_PHASES = new Set(['queued', 'planning', 'creating', 'uploading', 'confirming', 'paused']);

function Nav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const inbox = useInbox().data ?? [];
  const uploads = useUploads().data ?? [];
  const review = inbox.filter((i) => i.status === 'review').length;
  // A job waiting to retry by itself (retry_at) still counts as running, not as needing attention.
  const running = uploads.filter(
    (u) => ACTIVE_PHASES.has(u.phase) || (u.phase === 'failed' && u.retry_at !== null),
  ).length;
  const failed = uploads.filter((u) => u.phase === 'failed' && u.retry_at === null).length;
  const items = [
    {
      to: '/inbox',
      label: t('nav.inbox'),
      badge:
        review > 0 ? (
          <Badge size="sm" circle>
            {review}
          </Badge>
        ) : null,
    },
    {
      to: '/uploads',
      label: t('nav.uploads'),
      badge:
        failed > 0 ? (
          <Badge size="sm" color="red.9" circle>
            {failed}
          </Badge>
        ) : running > 0 ? (
          <Badge size="sm" circle>
            {running}
          </Badge>
        ) : null,
    },
    { to: '/exams', label: t('exams.nav'), badge: null },
    { to: '/account', label: t('nav.account'), badge: null },
    { to: '/settings', label: t('nav.settings'), badge: null },
    { to: '/referrers', label: t('referrers.nav'), badge: null, group: 'office' },
    { to: '/templates', label: t('templates.nav'), badge: null, group: 'office' },
    { to: '/implants', label: t('implants.nav'), badge: null, group: 'office' },
    { to: '/activity', label: t('activity.nav'), badge: null, group: 'office' },
    { to: '/webhooks', label: t('webhooks.nav'), badge: null, group: 'office' },
    { to: '/support', label: t('support.nav'), badge: null, group: 'office' },
  ];
  const firstOffice = items.findIndex((i) => i.group === 'office');
  return (
    <nav aria-label={t('nav.label')}>
      {items.map((item, index) => (
        <Fragment key={item.to}>
          {index === firstOffice && (
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="md" mb={4} px="sm">
              {t('nav.backOffice')}
            </Text>
          )}
          <NavLink
            component={RouterLink}
            to={item.to}
            label={item.label}
            rightSection={item.badge}
            active={pathname.startsWith(item.to)}
            aria-current={pathname.startsWith(item.to) ? 'page' : undefined}
            color="blue"
            fw={600}
            mb={4}
          />
        </Fragment>
      ))}
    </nav>
  );
}

/** The app shell: header with the key in use and the rate meter, the sandbox banner, navigation and the page. */
export function Layout() {
  const { t } = useTranslation();
  const status = useKeysStatus().data;
  const sandbox = status?.active === 'sandbox';
  const account = useAccount(status?.active != null);
  const rate = useRate(account.data?.rate);
  const connection = useConnectionState();
  const activeSlot = status?.active ? status[status.active] : null;
  return (
    <AppShell header={{ height: HEADER + (sandbox ? BANNER : 0) }} navbar={{ width: 210, breakpoint: 0 }} padding="lg">
      <AppShell.Header>
        <a href="#main" className="skip-link">
          {t('nav.skip')}
        </a>
        {sandbox && <SandboxBanner />}
        <Group h={HEADER} px="lg" justify="space-between" wrap="nowrap">
          <Title order={1} size="h3">
            ScanBridge
          </Title>
          <Group gap="lg" wrap="nowrap">
            <NotificationBell />
            <KeyIndicator status={status} />
            <RateGauge rate={rate} compact />
            <LanguageSwitch />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <Nav />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        {connection === 'lost' && (
          <Alert
            color="red"
            variant="filled"
            mb="md"
            role="alert"
            title={t('connection.lostTitle')}
            data-testid="connection-lost"
          >
            {t('connection.lostBody')}
          </Alert>
        )}
        <SettingsDamageAlert />
        {activeSlot?.session_only && (
          <Alert color="yellow" variant="light" mb="md" title={t('keys.sessionOnlyTitle')} data-testid="session-only">
            <Text size="sm">{t('keys.sessionOnlyBody')}</Text>
          </Alert>
        )}
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
