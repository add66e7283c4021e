import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language, NotificationView } from '../../../../preload/contract';
import { useKeysStatus } from '../../app/queries';
import { ErrorAlert } from '../../components/error-alert';
import { formatTime } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { useMarkAllRead, useMarkRead, useNotifications, useRefreshNotifications } from './notification-queries';

/** How old the list may be when the bell opens before it is asked for again. */
const STALE_ON_OPEN_MS = 30_000;

function BellIcon() {
  return (
    <svg
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/** One notification: unread ones are highlighted and carry their own "mark read" link. */
function NotificationItem({ n, lang, onMarkRead }: { n: NotificationView; lang: Language; onMarkRead: () => void }) {
  const { t } = useTranslation();
  return (
    <li data-testid="notification" data-id={n.id} data-read={n.read}>
      <Group
        justify="space-between"
        align="flex-start"
        wrap="nowrap"
        p={8}
        style={{ borderRadius: 6, background: n.read ? undefined : 'var(--mantine-color-blue-0)' }}
      >
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            {!n.read && (
              <Badge size="xs" color="blue.8" variant="filled" style={{ flexShrink: 0 }}>
                {t('notifications.new')}
              </Badge>
            )}
            <Text size="sm" fw={n.read ? 400 : 700} lineClamp={2}>
              {n.title}
            </Text>
          </Group>
          {n.body && (
            <Text size="xs" lineClamp={3}>
              {n.body}
            </Text>
          )}
          {n.created_at && (
            <Text size="xs" c="dimmed">
              {formatTime(n.created_at, lang)}
            </Text>
          )}
        </Stack>
        {!n.read && (
          <UnstyledButton
            onClick={onMarkRead}
            aria-label={t('notifications.markOneLabel', { title: n.title })}
            data-testid="notification-mark-read"
            style={{
              fontSize: 12,
              fontWeight: 600,
              color: 'var(--mantine-color-blue-9)',
              whiteSpace: 'nowrap',
              textDecoration: 'underline',
            }}
          >
            {t('notifications.markOne')}
          </UnstyledButton>
        )}
      </Group>
    </li>
  );
}

/** The header bell: unread count, and the account's notifications with mark one / all read. */
export function NotificationBell() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const active = useKeysStatus().data?.active != null;
  const [opened, setOpened] = useState(false);
  const list = useNotifications(active);
  const refresh = useRefreshNotifications();
  // The button pressed disappears once read: focus goes to the panel's title, not to the page.
  const titleRef = useRef<HTMLHeadingElement>(null);
  const markOne = useMarkRead(() => titleRef.current?.focus());
  const markAll = useMarkAllRead();
  if (!active) return null;
  const unread = list.data?.unread_count ?? 0;
  const items = list.data?.notifications ?? [];
  const toggle = () => {
    const next = !opened;
    setOpened(next);
    const age = list.data ? Date.now() - Date.parse(list.data.updated_at) : Infinity;
    if (next && age > STALE_ON_OPEN_MS) refresh.mutate({ refresh: true });
  };
  return (
    <Indicator label={unread > 99 ? '99+' : unread} size={18} color="red.9" disabled={unread === 0} offset={4} inline>
      <Popover
        opened={opened}
        onChange={setOpened}
        width={420}
        position="bottom-end"
        shadow="md"
        trapFocus
        returnFocus
        withArrow
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="dark"
            size="lg"
            onClick={toggle}
            aria-label={t('notifications.bellLabel', { count: unread })}
            aria-expanded={opened}
            data-testid="notification-bell"
            data-unread={unread}
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="sm" data-testid="notification-panel" role="dialog" aria-labelledby="notifications-title">
          <Title order={2} size="h5" id="notifications-title" ref={titleRef} tabIndex={-1} mb={6}>
            {t('notifications.title')}
          </Title>
          <Group justify="flex-end" gap="xs" mb="xs">
            <Button
              size="xs"
              variant="default"
              onClick={() => refresh.mutate({ refresh: true })}
              loading={refresh.isPending}
            >
              {t('notifications.check')}
            </Button>
            <Button
              size="xs"
              variant="light"
              onClick={() => markAll.mutate({})}
              disabled={unread === 0}
              loading={markAll.isPending}
              data-testid="notifications-mark-all"
            >
              {t('notifications.markAll')}
            </Button>
          </Group>
          <ErrorAlert error={list.error ?? refresh.error ?? markOne.error ?? markAll.error} />
          {items.length === 0 && !list.isPending && (
            <Text size="sm" c="dimmed" py="md" data-testid="notifications-empty">
              {t('notifications.empty')}
            </Text>
          )}
          <ScrollArea.Autosize mah={420} type="auto">
            <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {items.map((n) => (
                <NotificationItem key={n.id} n={n} lang={lang} onMarkRead={() => markOne.mutate({ id: n.id })} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
